/// @file work.hpp
/// How a stage of any of the chapter's problems divides its work, and what --analyze counts of
/// it for a set of segments: lane-steps, idle lanes, the most items one thread handles. Host
/// code only: no CUDA header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/cli.hpp"
#include "host/sizes.hpp"
#include "host/types.hpp"
#include "plan.hpp"
#include "segments.hpp"

namespace stepwise::segmented {

/// How a stage divides the work, as --analyze counts it.
enum class WorkUnit {
  library,  ///< the library decides
  thread,   ///< one thread per segment
  group,    ///< a group of `lanes` lanes of a warp per segment (32: a warp)
  block,    ///< one block per segment
  merge,    ///< Merge Path over offsets and items: VT merge steps per thread
  tile,     ///< tiles of NT x VT consecutive items, whatever the segments: VT items per thread
};

/// What a stage's lanes do: the unit, and its lanes per segment (group, block) or merge steps per thread.
struct WorkPlan {
  WorkUnit unit = WorkUnit::library;
  int lanes = 1;  ///< lanes per segment: 1 (thread), 2 .. 32 (group), the block's threads (block)
  int steps = 0;  ///< merge: the items and segment ends each thread walks (VT); tile: the items (VT)
};

/// What a work plan does over a set of offsets (--analyze): the lane-steps its threads run (one
/// lane's trip through its loop; the lanes of a warp run as long as the warp's longest) and the
/// most items one thread adds.
struct LaneWork {
  double lane_steps = 0.0;
  std::uint64_t most_items = 0;
};

/// The work of @p plan over the segments of @p offsets: a thread or a group of L lanes per
/// segment runs 32 / L segments per warp, each warp as long as its longest (at least one step);
/// a block of B threads runs max(1, ceil(length / B)) steps of B lanes per segment; Merge Path
/// runs ceil((n + segments) / VT) threads of VT steps; a tile of NT x VT items runs
/// ceil(n / (NT x VT)) tiles of NT threads of VT steps.
LaneWork lane_work(const WorkPlan& plan, const std::vector<std::uint64_t>& offsets);

/// The words of a work plan in --analyze: `thread/segment`, `8 lanes/segment`, `block of
/// 256/segment`, `Merge Path, VT = 7`.
std::string describe_plan(const WorkPlan& plan);

/// A kernel row as --analyze reads it: its number and name, and its work plan at its shape.
struct PlannedRow {
  int number = 0;
  std::string name;
  /// The row's traits.plan: the tuned row picks by the statistics of the segments.
  WorkPlan (*plan)(const SegmentStats& stats, const LaunchShape& shape) = nullptr;
  LaunchShape shape;
};

/// The rows of @p rows whose traits have a work plan (`row.traits.plan`; the library rows have
/// none), in the table's order.
template <class Row>
std::vector<PlannedRow> planned_rows(const std::vector<Row>& rows) {
  std::vector<PlannedRow> planned;
  for (const Row& row : rows)
    if (row.traits.plan != nullptr) planned.push_back({row.number, row.name, row.traits.plan, row.shape});
  return planned;
}

/// Whether --analyze --format json adds the worked example of lanes.hpp (segmented reduce's rows
/// are all per segment or Merge Path: it draws them; the tiles of the scans it does not).
enum class LanesExample { none, segment_lanes };

/// --analyze for one table: the segments of @p plan at --n and --seed, then for each of @p rows
/// its work, lane-steps, idle lanes and the most items one thread handles, as text (--format
/// table) or as one JSON document (--format json: `{"analysis": "segmented", "chapter": "10",
/// "problem", "type", "n", "segments", "seed", "stats", "rows"}`, and with
/// LanesExample::segment_lanes its `"segment_lanes"`: the example's offsets and, per row, the
/// units of lane_units; tools/stepwise_plot/analysis/segmented.py draws it).
std::string analyze_work(const Plan& plan, const CommonOptions& options, const std::vector<PlannedRow>& rows,
                         LanesExample example = LanesExample::none);

}  // namespace stepwise::segmented
