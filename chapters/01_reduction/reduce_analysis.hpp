/// @file reduce_analysis.hpp
/// --analyze: replays the shared-memory index maps of Harris's kernels 1 to 3 (stages 1, 3
/// and 4; addressing.hpp, the functions the kernels call) on the CPU, thread by thread, and
/// measures per tree step what the hardware will see: how many threads and warps work, how
/// many warps diverge, the worst shared-memory bank conflict, and the bank of every lane of
/// warp 0. It shows WHY each kernel is faster than the one before it, without a GPU, as a
/// table or as JSON for tools/plot (the trees and the lanes-to-banks diagrams).
#pragma once

#include <string>
#include <vector>

#include "addressing.hpp"
#include "host/types.hpp"

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

/// How many DISTINCT words of @p words fall in bank @p bank (the ways of that bank's
/// conflict: 1 means the bank serves its lanes at once).
unsigned bank_ways(const std::vector<unsigned>& words, unsigned bank);

/// One lane of warp 0 at one step: its thread's two words and the banks they fall in.
struct LaneWork {
  unsigned lane = 0;
  unsigned thread = 0;
  bool active = false;  ///< the thread adds at this step; the other fields are 0 when it does not
  unsigned left = 0;    ///< the word it reads and writes, sdata[left]
  unsigned right = 0;   ///< the word it reads, sdata[right]
  unsigned left_bank = 0;
  unsigned right_bank = 0;
  unsigned left_ways = 0;   ///< distinct words of warp 0's left access in this lane's left bank
  unsigned right_ways = 0;  ///< the same for the right access
};

/// One step of the tree, as the hardware sees it.
struct TreeStep {
  unsigned stride = 0;
  unsigned active_threads = 0;  ///< threads that add
  /// Warps with at least one adding thread: each sends the step's two loads and store to
  /// shared memory. (The compiled kernels predicate the add: every warp steps through the
  /// loop, and a warp with no adding lane has its loads and store switched off.)
  unsigned active_warps = 0;
  unsigned divergent_warps = 0;        ///< warps where some lanes add and some do not
  unsigned conflict_degree = 0;        ///< worst bank conflict of the step's reads and write, over warps
  std::vector<LaneWork> warp0;         ///< the 32 lanes of warp 0, lane by lane
  unsigned warp0_conflict_degree = 0;  ///< warp 0's worst conflict of the step (left or right)
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
  /// Active warps beyond ceil(active threads / 32), summed over the steps: warp-wide
  /// shared-memory accesses spent on idle lanes that a packed scheme would not spend.
  unsigned wasted_warp_steps = 0;
  unsigned worst_conflict_degree = 0;
  /// Warp-wide shared-memory instructions of the tree that some lane needs, per block: two
  /// loads and a store per active warp and step (what Nsight Compute counts as executed
  /// shared loads and stores).
  unsigned shared_accesses = 0;
  /// The wavefronts they take, per block: an access with a k-way bank conflict takes k.
  /// Wavefronts minus accesses is what Nsight Compute counts as bank conflicts.
  unsigned shared_wavefronts = 0;
};

/// Replays @p scheme for a block of @p block threads (a power of two in [64, 1024]).
/// @throws std::invalid_argument for another block size.
TreeAnalysis analyze(Addressing scheme, unsigned block);

/// One add of the tree: thread @p thread does `sdata[left] += sdata[right]`.
struct TreeAdd {
  unsigned thread = 0;
  unsigned left = 0;
  unsigned right = 0;
};

/// One step of a drawn tree: its adds, and every word's value after it.
struct TreeLevel {
  unsigned stride = 0;
  std::vector<TreeAdd> adds;
  std::vector<long long> values;
};

/// The shared-memory words one warp of a tree step touches: each active lane's left word (read
/// and written) and right word (read), in lane order, as thread_work() gives them.
struct WarpAccesses {
  std::vector<unsigned> left;
  std::vector<unsigned> right;
};

/// What warp @p warp of a @p block-thread block touches at the step of @p stride under @p scheme.
WarpAccesses warp_accesses(Addressing scheme, unsigned block, unsigned stride, unsigned warp);

/// The whole tree of @p scheme over a few words, replayed on example values: which thread
/// adds which word into which at each step, as the kernels' thread_work says.
struct AdditionTree {
  Addressing scheme = Addressing::sequential;
  unsigned elements = 0;
  std::vector<long long> input;
  std::vector<TreeLevel> levels;
};

/// The example values the trees add: the 16 values of the figures of Harris's slides
/// (10, 1, 8, -1, 0, -2, 3, 5, -2, -3, 2, 7, 0, 11, 0, 2; sum 41), repeated for more words.
std::vector<long long> example_values(unsigned elements);

/// The sizes of a drawn tree: words of shared memory (= threads of the small block).
inline constexpr unsigned kMinTreeElements = 4;
inline constexpr unsigned kMaxTreeElements = 64;

/// Replays @p scheme on @p elements words (a block of @p elements threads; a power of two
/// in [kMinTreeElements, kMaxTreeElements]) holding example_values(@p elements).
/// @throws std::invalid_argument for another size.
AdditionTree addition_tree(Addressing scheme, unsigned elements);

/// The step table and summary of @p analysis.
std::string render(const TreeAnalysis& analysis);

/// What --analyze prints for @p block threads per block: the three schemes, rendered, and
/// stage 2's variant of kernel 1 checked against it.
std::string analysis_report(unsigned block);

/// What --analyze --format json prints: one document of kind "reduction-addressing" (the
/// schema is in NOTES.md, "--analyze and its JSON", and in tools/stepwise_plot/analysis/reduction.py)
/// with the three schemes for @p block threads, warp 0 lane by lane at every step, and the
/// trees over @p tree_elements words.
std::string analysis_json(const ChapterInfo& chapter, unsigned block, unsigned tree_elements);

}  // namespace stepwise::reduction
