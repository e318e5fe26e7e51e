/// @file work.hpp
/// How a stage of any of the chapter's problems divides its work, and what --analyze counts of
/// it for a set of segments: lane-steps, idle lanes, the most items one thread handles. Host
/// code only: no CUDA header.
#pragma once

#include <cstdint>
#include <iomanip>
#include <sstream>
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

/// --analyze for one table: the segments of @p plan at --n and --seed, then for each row whose
/// traits have a work plan (`row.traits.plan(stats, shape)`; the library rows have none) its
/// work, lane-steps, idle lanes and the most items one thread handles.
template <class Row>
std::string analyze_work(const Plan& plan, const CommonOptions& options, const std::vector<Row>& rows) {
  const std::vector<std::uint64_t> offsets = make_offsets(options.n, plan.segments, options.seed);
  const SegmentStats stats = segment_stats(offsets);
  std::ostringstream out;
  out << "n = " << format_grouped(static_cast<std::int64_t>(options.n)) << " items in "
      << format_grouped(static_cast<std::int64_t>(stats.segments)) << " segments (" << to_string(plan.segments)
      << ", seed " << options.seed << "): mean length " << std::setprecision(3) << stats.mean_length() << ", longest "
      << format_grouped(static_cast<std::int64_t>(stats.max_length)) << ", "
      << format_grouped(static_cast<std::int64_t>(stats.empty)) << " empty\n";
  out << "A lane-step is one lane's trip through its loop; an idle one handles no item.\n";
  out << "  #  stage               work                   lane-steps  idle lanes  most items/thread\n";
  for (const Row& row : rows) {
    if (row.traits.plan == nullptr) continue;  // the library decides
    const WorkPlan work_plan = row.traits.plan(stats, row.shape);
    const LaneWork work = lane_work(work_plan, offsets);
    const double idle = work.lane_steps > 0 ? 100.0 * (1.0 - static_cast<double>(options.n) / work.lane_steps) : 0.0;
    std::ostringstream percent;
    percent << std::fixed << std::setprecision(1) << idle << " %";
    out << std::setw(3) << row.number << "  " << std::left << std::setw(20) << row.name << std::setw(22)
        << describe_plan(work_plan) << std::right << std::setw(12)
        << format_grouped(static_cast<std::int64_t>(work.lane_steps)) << std::setw(12) << percent.str() << std::setw(19)
        << format_grouped(static_cast<std::int64_t>(work.most_items)) << "\n";
  }
  return out.str();
}

}  // namespace stepwise::segmented
