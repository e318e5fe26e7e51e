/// @file 01_warp_rounds.hpp
/// Exercise 07-1 (README.md): what one warp costs with a branch per path (stage 1) and with one
/// loop (stage 2).
#pragma once

#include <cstdint>
#include <vector>

namespace stepwise::divergence::exercises {

/// One warp's cost in rounds (inputs.hpp's WarpCost, for one warp).
struct WarpRounds {
  std::uint64_t branch_rounds = 0;  ///< a branch per path (stage 1): the rounds of each path the warp holds, summed
  std::uint64_t loop_rounds = 0;    ///< one loop (stage 2): its longest lane's rounds
  std::uint64_t lane_rounds = 0;    ///< the rounds its lanes need, summed
  bool divergent = false;           ///< its lanes hold more than one path
};

/// Your function: the cost of one warp whose lanes hold the paths @p paths (1 to 32 lanes: a
/// short last warp has fewer), path p costing @p rounds[p] rounds.
WarpRounds warp_rounds(const std::vector<std::uint8_t>& paths, const std::vector<unsigned>& rounds);

}  // namespace stepwise::divergence::exercises
