/// @file reduce_analysis.hpp
/// --analyze: replays the shared-memory index maps of kernels 1 to 3 (addressing.hpp, the
/// functions the kernels call) on the CPU, thread by thread, and measures per tree step what
/// the hardware will see: how many threads and warps work, how many warps diverge, and the
/// worst shared-memory bank conflict. It shows WHY each kernel is faster than the one
/// before it, without a GPU.
#pragma once

#include <string>
#include <vector>

#include "addressing.hpp"

namespace stepwise::reduction {

/// Shared-memory banks and their width: 32 banks of 4-byte words (every GPU since Fermi).
inline constexpr unsigned kBanks = 32;
/// Threads per warp.
inline constexpr unsigned kWarpSize = 32;

/// The degree of the bank conflict of one warp-wide shared-memory access to 4-byte
/// words @p words (one per active lane): the largest number of DISTINCT words that fall
/// in one bank (lanes reading the same word are served by one broadcast). 1 means
/// conflict free, k means the access is replayed k times; 0 for no active lane.
unsigned bank_conflict_degree(const std::vector<unsigned>& words);

/// One step of the tree, as the hardware sees it.
struct TreeStep {
  unsigned stride = 0;
  unsigned active_threads = 0;   ///< threads that add
  unsigned active_warps = 0;     ///< warps with at least one adding thread: each issues the step
  unsigned divergent_warps = 0;  ///< warps where some lanes add and some do not
  unsigned conflict_degree = 0;  ///< worst bank conflict of the step's reads and write, over warps
};

/// A scheme's whole tree for one block size.
struct TreeAnalysis {
  Addressing scheme = Addressing::sequential;
  unsigned block = 0;
  std::vector<TreeStep> steps;
  /// Divergent warps summed over the steps where at least 32 threads add: the divergence
  /// an addressing scheme could avoid (once fewer than 32 threads work, their warp is
  /// partly idle in every scheme: the steps kernel 5 unrolls).
  unsigned avoidable_divergent_warps = 0;
  /// Warps issuing a step beyond ceil(active threads / 32), summed over the steps: warp
  /// slots spent on idle lanes that a packed scheme would not spend.
  unsigned wasted_warp_steps = 0;
  unsigned worst_conflict_degree = 0;
};

/// Replays @p scheme for a block of @p block threads (a power of two in [64, 1024]).
/// @throws std::invalid_argument for another block size.
TreeAnalysis analyze(Addressing scheme, unsigned block);

/// The step table and summary of @p analysis.
std::string render(const TreeAnalysis& analysis);

/// What --analyze prints for @p block threads per block: the three schemes, rendered.
std::string analysis_report(unsigned block);

}  // namespace stepwise::reduction
