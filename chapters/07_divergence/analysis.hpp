/// @file analysis.hpp
/// --analyze: what each stage does with the chosen input, computed on the CPU from the same
/// paths the GPU sees. Host code only.
#pragma once

#include <cstdint>
#include <string>

#include "inputs.hpp"

namespace stepwise::divergence {

/// The report of --analyze for @p n elements of @p plan drawn from @p seed: the paths'
/// histogram, the divergent warps, each stage's issued warp-rounds and warp efficiency (lanes
/// busy per issued round), the elements each remap moves, and stage 8's decision. For the
/// mutation workload, the first generation (every generation draws its paths alike). Of the
/// first kMaxAnalyzedElements elements at most: the text says when it looked at fewer than n.
std::string analyze(const Plan& plan, std::uint64_t n, std::uint64_t seed);

}  // namespace stepwise::divergence
