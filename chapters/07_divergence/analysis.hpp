/// @file analysis.hpp
/// --analyze: what each stage does with the chosen input, computed on the CPU from the same
/// paths the GPU sees, as text or (`--format json`) as the document `tools/plot analysis` draws
/// the remapping diagram from, with the paper's path-vector example. Host code only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "inputs.hpp"

namespace stepwise::divergence {

/// The report of --analyze for @p n elements of @p plan drawn from @p seed: the paths'
/// histogram, the divergent warps, each stage's issued warp-rounds and warp efficiency (lanes
/// busy per issued round), the elements each remap moves, and stage 8's decision. For the
/// mutation workload, the first generation (every generation draws its paths alike). Of the
/// first kMaxAnalyzedElements elements at most: the text says when it looked at fewer than n.
/// The rows are @p stages, @p plan's table, each costed by its arrangement.
std::string analyze(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<StageFacts>& stages);

/// The paper's path-vector example (Zhang et al., ICS 2010, slides 10-16), remapped by the
/// chapter's own order: each thread tid holds A[tid]; two branches, `if (A[tid] % 2)` and
/// `if (A[tid] < 10)`, give it the path vector <A % 2, A < 10>, its path 2 b1 + b2; the remap is
/// order_by_path() (stable by path, as stage 3's sort). Warps are drawn @p warp_width lanes wide,
/// as the paper's slides draw them (the chapter's warps are 32).
struct PvectorExample {
  unsigned warp_width = 4;
  std::vector<std::uint32_t> values;   ///< A[tid]; the first three are the paper's (2, 11, 14)
  std::vector<std::uint8_t> paths;     ///< 2 (A % 2) + (A < 10)
  std::vector<std::uint32_t> order;    ///< IND: thread t works on element order[t]
  std::vector<unsigned> paths_before;  ///< distinct paths per warp, thread t on element t
  std::vector<unsigned> paths_after;   ///< distinct paths per warp, thread t on element order[t]
};

/// The example's 16 values in warps of 4.
PvectorExample pvector_example();

/// The JSON form of analyze() ("analysis": "divergence-remap"), with the path-vector example:
/// what `tools/plot analysis` draws the remapping diagram from.
std::string analyze_json(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<StageFacts>& stages);

}  // namespace stepwise::divergence
