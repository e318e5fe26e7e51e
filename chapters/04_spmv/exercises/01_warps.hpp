/// @file 01_warps.hpp
/// Exercise 04-1 (README.md): the steps of each warp of stage 1 (a thread per row) and stage 3 (a
/// group of lanes per row), and the lane-steps they leave idle.
#pragma once

#include <cstdint>
#include <vector>

namespace stepwise::spmv::exercises {

/// What the warps of a stage do with a matrix's rows.
struct WarpSteps {
  /// Per warp, in order: the trips through the row loop it runs, its slowest group's.
  std::vector<std::int64_t> steps;
  /// Over all warps: the lane-steps (32 per step of a warp) in which a lane multiplies no nonzero.
  std::int64_t idle_lane_steps = 0;
};

/// Your function: the warps of a stage with @p lanes_per_row lanes per row (1, 2, 4, 8, 16 or 32)
/// on the CSR matrix whose row offsets are @p offsets (rows + 1 entries, offsets[0] = 0). A warp
/// takes 32 / L consecutive rows, the last warp may be partly empty. A group of L > 1 lanes takes
/// ceil(len / L) steps through a row of len nonzeros, and one step through an empty row (its
/// reduction still runs); a single thread (L = 1) takes len steps.
WarpSteps warp_steps(const std::vector<std::int32_t>& offsets, int lanes_per_row);

}  // namespace stepwise::spmv::exercises
