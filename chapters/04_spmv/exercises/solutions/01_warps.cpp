// Exercise 04-1, solved: rows [w R, (w + 1) R) make warp w, R = 32 / L; a row takes len steps for
// L = 1 and ceil(max(len, 1) / L) for L > 1; the warp takes its slowest row's steps, and of its
// 32 x steps lane-steps, the row's nonzeros are busy and the rest idle.
#include "01_warps.hpp"

#include <algorithm>

namespace stepwise::spmv::exercises {

WarpSteps warp_steps(const std::vector<std::int32_t>& offsets, int lanes_per_row) {
  const std::int64_t rows = static_cast<std::int64_t>(offsets.size()) - 1;
  const std::int64_t lanes = lanes_per_row;
  const std::int64_t rows_per_warp = 32 / lanes;
  WarpSteps warps;
  for (std::int64_t first = 0; first < rows; first += rows_per_warp) {
    std::int64_t slowest = 0;
    std::int64_t nonzeros = 0;
    for (std::int64_t row = first; row < std::min(rows, first + rows_per_warp); ++row) {
      const std::int64_t length = offsets[static_cast<std::size_t>(row + 1)] - offsets[static_cast<std::size_t>(row)];
      const std::int64_t steps = lanes == 1 ? length : (std::max<std::int64_t>(length, 1) + lanes - 1) / lanes;
      slowest = std::max(slowest, steps);
      nonzeros += length;
    }
    warps.steps.push_back(slowest);
    warps.idle_lane_steps += 32 * slowest - nonzeros;
  }
  return warps;
}

}  // namespace stepwise::spmv::exercises
