// The worked example of --analyze --format json: which lane handles which item, plan by plan.
#include "lanes.hpp"

#include <algorithm>

#include "algorithm/merge_path.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "merge_reduce.hpp"

namespace stepwise::segmented {
namespace {

/// The merge steps per thread the example can walk: every VT a Merge Path row of the table compiles.
using ExampleSteps = IntList<3, 5, 7, 9, 11>;

/// Unit @p index of @p unit_lanes lanes whose groups of @p lanes lanes take @p segments, one
/// each: lane l of group g adds items offsets[s] + l, + lanes, ... of its segment s, one per step.
LaneUnit strided_unit(std::uint64_t index, int unit_lanes, int lanes, const std::vector<std::uint64_t>& segments,
                      const std::vector<std::uint64_t>& offsets) {
  LaneUnit unit;
  unit.index = index;
  unit.lanes = unit_lanes;
  unit.segments = segments;
  unit.steps = 1;
  const int groups = static_cast<int>(segments.size());
  for (int g = 0; g < groups; ++g) {
    const std::uint64_t s = segments[static_cast<std::size_t>(g)];
    const std::uint64_t length = offsets[s + 1] - offsets[s];
    unit.steps = std::max(unit.steps, static_cast<int>(ceil_div(length, static_cast<std::uint64_t>(lanes))));
    for (std::uint64_t k = 0; k < length; ++k)
      unit.cells.push_back({g * lanes + static_cast<int>(k % static_cast<std::uint64_t>(lanes)),
                            static_cast<int>(k / static_cast<std::uint64_t>(lanes)),
                            static_cast<std::int64_t>(offsets[s] + k), s});
  }
  return unit;
}

/// The Merge Path threads of VT steps each, as the partition kernel cuts them and merge_reduce_walk walks them.
template <int VT>
std::vector<LaneUnit> merge_units(const std::vector<std::uint64_t>& offsets) {
  const std::uint64_t segments = offsets.size() - 1;
  const std::uint64_t n = offsets.back();
  const std::uint64_t total = n + segments;
  const std::uint64_t* ends = offsets.data() + 1;
  const auto path = [&](std::uint64_t diagonal) {
    return static_cast<std::uint64_t>(
        merge_path<Bounds::lower>(ends, static_cast<std::int64_t>(segments), CountingIterator<std::uint64_t>{0},
                                  static_cast<std::int64_t>(n), static_cast<std::int64_t>(diagonal), Less{}));
  };
  std::vector<LaneUnit> units;
  for (std::uint64_t t = 0; t * VT < total; ++t) {
    const std::uint64_t first = t * VT;
    const std::uint64_t last = std::min(first + VT, total);
    LaneUnit unit;
    unit.index = t;
    unit.lanes = 1;
    unit.steps = VT;
    unit.a = path(first);
    unit.b = first - unit.a;
    const std::uint64_t a_end = path(last);
    int step = 0;
    std::uint64_t open = unit.a;  // the segment the next item belongs to
    merge_reduce_walk<VT, std::uint64_t>(
        ends, unit.a, a_end, unit.b, last - a_end,
        [&](std::uint64_t i) {
          unit.cells.push_back({0, step++, static_cast<std::int64_t>(i), open});
          return std::uint64_t{1};
        },
        [&](std::uint64_t s, std::uint64_t) {
          unit.cells.push_back({0, step++, -1, s});
          unit.segments.push_back(s);
          open = s + 1;
        });
    units.push_back(std::move(unit));
  }
  return units;
}

}  // namespace

SegmentSpec lanes_example_spec(const SegmentSpec& spec) {
  SegmentSpec example = spec;
  if (spec.kind == SegmentSpec::Kind::uniform) example.parameter = std::min(spec.parameter, kLanesExampleMostMean);
  return example;
}

std::vector<std::uint64_t> lanes_example_offsets(const SegmentSpec& spec) {
  const SegmentSpec example = lanes_example_spec(spec);
  std::vector<std::uint64_t> offsets;
  for (std::uint64_t n = 1; n <= kLanesExampleMostItems; ++n) {
    offsets = make_offsets(n, example, kLanesExampleSeed);
    if (offsets.size() - 1 >= kLanesExampleSegments) break;
  }
  return offsets;
}

std::vector<LaneUnit> lane_units(const WorkPlan& plan, const std::vector<std::uint64_t>& offsets) {
  const std::uint64_t segments = offsets.size() - 1;
  std::vector<LaneUnit> units;
  switch (plan.unit) {
    case WorkUnit::thread:
    case WorkUnit::group: {
      const std::uint64_t per_warp = static_cast<std::uint64_t>(32 / plan.lanes);
      for (std::uint64_t first = 0; first < segments; first += per_warp) {
        std::vector<std::uint64_t> mine;
        for (std::uint64_t s = first; s < std::min(segments, first + per_warp); ++s) mine.push_back(s);
        units.push_back(strided_unit(first / per_warp, 32, plan.lanes, mine, offsets));
      }
      return units;
    }
    case WorkUnit::block:
      for (std::uint64_t s = 0; s < segments; ++s)
        units.push_back(strided_unit(s, plan.lanes, plan.lanes, {s}, offsets));
      return units;
    case WorkUnit::merge:
      dispatch(plan.steps, ExampleSteps{}, "merge steps per thread",
               [&](auto vt) { units = merge_units<decltype(vt)::value>(offsets); });
      return units;
    case WorkUnit::tile:
    case WorkUnit::library:
      break;
  }
  return units;
}

}  // namespace stepwise::segmented
