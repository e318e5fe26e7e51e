/// @file 03_sample.hpp
/// Exercise 07-3 (README.md): stage 8's sample, and whether it remaps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stepwise::divergence::exercises {

/// What stage 8's sample reads and decides.
struct SampleAnswer {
  std::size_t warps = 0;             ///< the warps it samples
  std::uint64_t longest_rounds = 0;  ///< over those warps: each one's longest lane's rounds, summed
  std::uint64_t lane_rounds = 0;     ///< over those warps: the rounds of their lanes, summed
  bool remaps = false;               ///< whether it runs stage 3 (a remap) rather than stage 2
};

/// Your function: stage 8's sample of the elements whose paths are @p paths (path p costing
/// @p rounds[p] rounds). Of the warps of 32 consecutive elements (the last may be short), it reads
/// warp 0 and every stride-th warp after it, stride = warps / 2048 (integer division) when there are
/// more than 2048 warps, else 1. A warp costs its longest lane without a remap and its lanes' rounds
/// / 32 grouped by path (a short warp's too); it remaps when the saving per sampled warp, the
/// difference of the two sums over the warps sampled, reaches kBreakEvenRounds (40, workload.hpp).
SampleAnswer stage8_sample(const std::vector<std::uint8_t>& paths, const std::vector<unsigned>& rounds);

}  // namespace stepwise::divergence::exercises
