// Exercise 10-1, solved: a warp of 32 / L segments runs as long as its longest segment's
// ceil(length / L) steps (one at least); a block runs max(1, ceil(length / B)) steps of B lanes
// per segment; Merge Path and the tiles run whole threads of VT steps over their items.
#include "01_idle_lanes.hpp"

#include <algorithm>

namespace stepwise::segmented::exercises {

LaneWork predicted_work(const WorkPlan& plan, const std::vector<std::uint64_t>& offsets) {
  const std::uint64_t segments = offsets.size() - 1;
  const std::uint64_t n = offsets.back();
  const auto up = [](std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; };
  std::uint64_t longest = 0;
  for (std::uint64_t s = 0; s < segments; ++s) longest = std::max(longest, offsets[s + 1] - offsets[s]);
  LaneWork work;
  const auto lanes = static_cast<std::uint64_t>(plan.lanes);
  const auto vt = static_cast<std::uint64_t>(plan.steps);
  switch (plan.unit) {
    case WorkUnit::thread:
    case WorkUnit::group:
      for (std::uint64_t first = 0; first < segments; first += 32 / lanes) {
        std::uint64_t steps = 1;
        for (std::uint64_t s = first; s < std::min(segments, first + 32 / lanes); ++s)
          steps = std::max(steps, up(offsets[s + 1] - offsets[s], lanes));
        work.lane_steps += 32.0 * static_cast<double>(steps);
      }
      work.most_items = up(longest, lanes);
      break;
    case WorkUnit::block:
      for (std::uint64_t s = 0; s < segments; ++s)
        work.lane_steps +=
            static_cast<double>(lanes * std::max<std::uint64_t>(1, up(offsets[s + 1] - offsets[s], lanes)));
      work.most_items = up(longest, lanes);
      break;
    case WorkUnit::merge:
      work.lane_steps = static_cast<double>(up(n + segments, vt) * vt);
      work.most_items = std::min(vt, n);
      break;
    case WorkUnit::tile:
      work.lane_steps = static_cast<double>(up(n, lanes * vt) * lanes * vt);
      work.most_items = std::min(vt, n);
      break;
    case WorkUnit::library:
      break;
  }
  return work;
}

}  // namespace stepwise::segmented::exercises
