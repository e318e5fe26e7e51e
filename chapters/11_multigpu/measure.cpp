// The chapter's one timing loop (measure.hpp): check, time over the team, check again.
#include "measure.hpp"

#include <algorithm>
#include <stdexcept>

#include "host/timing.hpp"

namespace stepwise::multigpu {

Measurement measure(const StageInfo& stage, const DeviceTeam& team, TeamTimer& timer, const CommonOptions& options,
                    Flush flush, std::uint64_t bytes, std::uint64_t n, const RowWork& work,
                    std::vector<std::string>& notes) {
  Measurement row;
  row.number = stage.number;
  row.stage = stage.name;
  row.kind = stage.kind;
  row.bytes = bytes;
  row.n = n;
  const TeamWork run = [&](const DeviceTeam&) { work.run(); };
  work.poison_outputs();
  run(team);
  team.synchronize();
  Check check = work.check();
  if (!check.passed) {
    row.verdict = Verdict::fail;
    row.detail = check.detail;
    return row;
  }
  TimingOptions timing;
  timing.reps = options.reps;
  timing.warmup = options.warmup;
  timing.flush = flush;
  timing.hold = !stage.synchronizes;
  work.poison_outputs();
  TimingStats time;
  try {
    time = timer.time(run, timing);
  } catch (const std::runtime_error& error) {
    if (!timing.hold) throw;
    // The row waited for the GPUs while their streams were held: time it again without holding
    // them (its time then includes its own launches), and say so.
    timing.hold = false;
    team.synchronize();
    time = timer.time(run, timing);
    const std::string note = stage.name + ": timed without holding the streams (" + error.what() + ")";
    if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
  }
  team.synchronize();
  check = work.check();
  if (!check.passed) {
    row.verdict = Verdict::fail;
    row.detail = "after timing: " + check.detail;
    return row;
  }
  row.time = time;
  return row;
}

}  // namespace stepwise::multigpu
