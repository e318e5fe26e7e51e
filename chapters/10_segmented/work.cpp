// The work model of --analyze: lane-steps and the most items per thread of each work plan.
#include "work.hpp"

#include <algorithm>

#include "host/launch.hpp"

namespace stepwise::segmented {

LaneWork lane_work(const WorkPlan& plan, const std::vector<std::uint64_t>& offsets) {
  const std::uint64_t segments = offsets.size() - 1;
  const std::uint64_t n = offsets.back();
  const auto length = [&](std::uint64_t s) { return offsets[s + 1] - offsets[s]; };
  const auto steps = [](std::uint64_t items, std::uint64_t lanes) {
    return std::max<std::uint64_t>(1, ceil_div(items, lanes));
  };
  LaneWork work;
  switch (plan.unit) {
    case WorkUnit::thread:
    case WorkUnit::group: {  // a warp of 32 / lanes segments runs as long as its longest
      const std::uint64_t lanes = static_cast<std::uint64_t>(plan.lanes);
      const std::uint64_t per_warp = 32 / lanes;
      for (std::uint64_t first = 0; first < segments; first += per_warp) {
        std::uint64_t longest = 0;
        for (std::uint64_t s = first; s < std::min(segments, first + per_warp); ++s)
          longest = std::max(longest, steps(length(s), lanes));
        work.lane_steps += 32.0 * static_cast<double>(longest);
      }
      std::uint64_t max_length = 0;
      for (std::uint64_t s = 0; s < segments; ++s) max_length = std::max(max_length, length(s));
      work.most_items = ceil_div(max_length, lanes);
      return work;
    }
    case WorkUnit::block: {
      const std::uint64_t lanes = static_cast<std::uint64_t>(plan.lanes);
      std::uint64_t max_length = 0;
      for (std::uint64_t s = 0; s < segments; ++s) {
        work.lane_steps += static_cast<double>(lanes * steps(length(s), lanes));
        max_length = std::max(max_length, length(s));
      }
      work.most_items = ceil_div(max_length, lanes);
      return work;
    }
    case WorkUnit::merge: {
      const std::uint64_t vt = static_cast<std::uint64_t>(plan.steps);
      work.lane_steps = static_cast<double>(ceil_div(n + segments, vt) * vt);
      work.most_items = std::min<std::uint64_t>(vt, n);
      return work;
    }
    case WorkUnit::tile: {
      const std::uint64_t tile = static_cast<std::uint64_t>(plan.lanes) * static_cast<std::uint64_t>(plan.steps);
      work.lane_steps = static_cast<double>(ceil_div(n, tile) * tile);
      work.most_items = std::min<std::uint64_t>(static_cast<std::uint64_t>(plan.steps), n);
      return work;
    }
    case WorkUnit::library:
      break;
  }
  return work;
}

/// The words of a work plan: `1 lane/segment`, `block of 256/segment`, `Merge Path, VT = 7`.
std::string describe_plan(const WorkPlan& plan) {
  switch (plan.unit) {
    case WorkUnit::thread:
      return "thread/segment";
    case WorkUnit::group:
      return plan.lanes == 1 ? "1 lane/segment" : std::to_string(plan.lanes) + " lanes/segment";
    case WorkUnit::block:
      return "block of " + std::to_string(plan.lanes) + "/segment";
    case WorkUnit::merge:
      return "Merge Path, VT = " + std::to_string(plan.steps);
    case WorkUnit::tile:
      return "tiles of " + std::to_string(plan.lanes) + "x" + std::to_string(plan.steps);
    case WorkUnit::library:
      break;
  }
  return "library";
}

}  // namespace stepwise::segmented
