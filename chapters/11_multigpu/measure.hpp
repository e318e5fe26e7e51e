/// @file measure.hpp
/// The timing loop of every problem of the chapter (the all-reduce, the scan, the sort): one row
/// run once and checked, timed over the team (the slowest GPU's time of each repetition, with
/// TeamTimer), and checked again.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "host/cli.hpp"
#include "host/multi_device.hpp"
#include "host/timing.hpp"
#include "host/types.hpp"
#include "host/verify.hpp"
#include "sweep_report.hpp"

namespace stepwise::multigpu {

/// What measure() does with one row of a problem: run it, poison its outputs, judge them.
struct RowWork {
  /// Enqueues one run of the row on the team's streams; it waits for the host only if the row
  /// says so (StageInfo::synchronizes).
  std::function<void()> run;
  /// Poisons every output the row writes, and waits until that is done.
  std::function<void()> poison_outputs;
  /// Judges the outputs against the CPU reference (called once the team's streams are idle).
  std::function<Check()> check;
};

/// One row of the report at one size: @p work run once and checked (a wrong row is not timed),
/// then --warmup untimed and --reps timed runs with TeamTimer (each repetition's time is the
/// slowest GPU's; the row's time, their summary), then checked again. Every GPU's L2 is flushed
/// before each repetition as @p flush says (the all-reduce passes Flush::none, as nccl-tests). The
/// streams are held before each repetition unless the row synchronizes or launches are
/// synchronous (a tool such as compute-sanitizer: TeamTimer::holds_streams). A row that waited
/// for the GPUs while they were held is timed again without holding them, and @p notes says so
/// (once per row name).
/// @param stage the row: its number, name and kind go to the report, `synchronizes` to the timer
/// @param team the GPUs the row runs on
/// @param timer the team's timer
/// @param options --reps and --warmup
/// @param flush how every GPU's L2 is emptied before each timed repetition
/// @param bytes the report's bytes column (per GPU for the all-reduce, the whole problem for the others)
/// @param n the report's n column
/// @param work how to run, poison and check the row
/// @param notes the report's notes
/// @return the row: its verdict (with the failing check's detail) and, when it passed, its time
Measurement measure(const StageInfo& stage, const DeviceTeam& team, TeamTimer& timer, const CommonOptions& options,
                    Flush flush, std::uint64_t bytes, std::uint64_t n, const RowWork& work,
                    std::vector<std::string>& notes);

}  // namespace stepwise::multigpu
