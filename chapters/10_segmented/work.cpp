// The work model of --analyze: lane-steps and the most items per thread of each work plan.
#include "work.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "host/launch.hpp"
#include "lanes.hpp"

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

namespace {

using json = nlohmann::ordered_json;  // keys in the order written: the schema reads top-down

/// The share of @p work's lane-steps that handle no item of @p n: 0 to 1.
double idle_share(const LaneWork& work, std::uint64_t n) {
  return work.lane_steps > 0 ? 1.0 - static_cast<double>(n) / work.lane_steps : 0.0;
}

/// `thread`, `group`, `block`, `merge`, `tile`, `library`: the unit's name in the JSON document.
const char* unit_name(WorkUnit unit) {
  switch (unit) {
    case WorkUnit::thread:
      return "thread";
    case WorkUnit::group:
      return "group";
    case WorkUnit::block:
      return "block";
    case WorkUnit::merge:
      return "merge";
    case WorkUnit::tile:
      return "tile";
    case WorkUnit::library:
      break;
  }
  return "library";
}

/// One row's plan and work over @p offsets, as the JSON document writes it.
json row_json(const PlannedRow& row, const WorkPlan& plan, const std::vector<std::uint64_t>& offsets) {
  const LaneWork work = lane_work(plan, offsets);
  return {{"stage", row.number},           {"name", row.name},
          {"work", describe_plan(plan)},   {"unit", unit_name(plan.unit)},
          {"lanes", plan.lanes},           {"steps", plan.steps},
          {"lane_steps", work.lane_steps}, {"idle", idle_share(work, offsets.back())},
          {"most_items", work.most_items}};
}

json stats_json(const SegmentStats& stats) {
  return {{"segments", stats.segments},
          {"mean_length", stats.mean_length()},
          {"longest", stats.max_length},
          {"empty", stats.empty}};
}

/// The worked example: its segments, and each row's units (lane_units) over them.
json lanes_json(const SegmentSpec& spec, const std::vector<PlannedRow>& rows) {
  const std::vector<std::uint64_t> offsets = lanes_example_offsets(spec);
  const SegmentStats stats = segment_stats(offsets);
  json stages = json::array();
  for (const PlannedRow& row : rows) {
    const WorkPlan plan = row.plan(stats, row.shape);
    const std::vector<LaneUnit> units = lane_units(plan, offsets);
    if (units.empty()) continue;  // a tile plan: not drawn
    json unit_list = json::array();
    for (const LaneUnit& unit : units) {
      json cells = json::array();
      for (const LaneCell& cell : unit.cells)
        cells.push_back({{"lane", cell.lane}, {"step", cell.step}, {"item", cell.item}, {"segment", cell.segment}});
      json one = {{"index", unit.index},
                  {"lanes", unit.lanes},
                  {"steps", unit.steps},
                  {"segments", unit.segments},
                  {"cells", cells}};
      if (plan.unit == WorkUnit::merge) {
        one["a"] = unit.a;
        one["b"] = unit.b;
      }
      unit_list.push_back(one);
    }
    json stage = row_json(row, plan, offsets);
    stage["units"] = unit_list;
    stages.push_back(stage);
  }
  return {{"segments", to_string(lanes_example_spec(spec))},
          {"drawn_from", to_string(spec)},
          {"seed", kLanesExampleSeed},
          {"n", offsets.back()},
          {"offsets", offsets},
          {"stats", stats_json(stats)},
          {"stages", stages}};
}

}  // namespace

std::string analyze_work(const Plan& plan, const CommonOptions& options, const std::vector<PlannedRow>& rows,
                         LanesExample example) {
  const std::vector<std::uint64_t> offsets = make_offsets(options.n, plan.segments, options.seed);
  const SegmentStats stats = segment_stats(offsets);
  if (options.format == Format::json) {
    json row_list = json::array();
    for (const PlannedRow& row : rows) row_list.push_back(row_json(row, row.plan(stats, row.shape), offsets));
    json document = {{"analysis", "segmented"}, {"chapter", "10"},
                     {"problem", plan.problem}, {"type", to_string(plan.type)},
                     {"n", options.n},          {"segments", to_string(plan.segments)},
                     {"seed", options.seed},    {"stats", stats_json(stats)},
                     {"rows", row_list}};
    if (example == LanesExample::segment_lanes) document["segment_lanes"] = lanes_json(plan.segments, rows);
    return document.dump(1) + "\n";
  }
  std::ostringstream out;
  out << "n = " << format_grouped(static_cast<std::int64_t>(options.n)) << " items in "
      << format_grouped(static_cast<std::int64_t>(stats.segments)) << " segments (" << to_string(plan.segments)
      << ", seed " << options.seed << "): mean length " << std::setprecision(3) << stats.mean_length() << ", longest "
      << format_grouped(static_cast<std::int64_t>(stats.max_length)) << ", "
      << format_grouped(static_cast<std::int64_t>(stats.empty)) << " empty\n";
  out << "A lane-step is one lane's trip through its loop; an idle one handles no item.\n";
  out << "  #  stage               work                   lane-steps  idle lanes  most items/thread\n";
  for (const PlannedRow& row : rows) {
    const WorkPlan work_plan = row.plan(stats, row.shape);
    const LaneWork work = lane_work(work_plan, offsets);
    std::ostringstream percent;
    percent << std::fixed << std::setprecision(1) << 100.0 * idle_share(work, options.n) << " %";
    out << std::setw(3) << row.number << "  " << std::left << std::setw(20) << row.name << std::setw(22)
        << describe_plan(work_plan) << std::right << std::setw(12)
        << format_grouped(static_cast<std::int64_t>(work.lane_steps)) << std::setw(12) << percent.str() << std::setw(19)
        << format_grouped(static_cast<std::int64_t>(work.most_items)) << "\n";
  }
  return out.str();
}

}  // namespace stepwise::segmented
