/// @file harness.hpp
/// The chapter harness: every chapter's main is its stage list plus a few lines.
///
/// @code
///   int main(int argc, char** argv) {
///     return stepwise::run_main(argv[0], [&] {
///       stepwise::ChapterCli cli(kChapter, stepwise::describe(copy_stages()));
///       if (auto code = cli.parse(argc, argv)) return *code;   // --help, --list, bad options
///       stepwise::Session session(cli);                         // the GPU (77 if none), memcpy baseline
///       session.require_device_bytes(2.0 * cli.options().n * sizeof(int));
///       CopyProblem problem(cli.options().n, cli.options().seed);
///       return session.run(copy_stages(), problem);            // check, time, check, report
///     });
///   }
/// @endcode
///
/// For each selected stage the session poisons the output, runs the stage once, checks
/// it against the CPU reference, times it (CUDA events, warm-up, median of --reps with
/// L2 flushed before each), and checks the output the timed runs left. A failed check
/// marks the row FAIL, the run goes on, and the exit code is 1.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli.hpp"
#include "device.hpp"
#include "report.hpp"
#include "timing.hpp"
#include "verify.hpp"

namespace stepwise {

/// No CUDA device (or no working driver): exit code 77, the conventional "skipped".
class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Exit codes shared by every executable.
enum ExitCode : int { kExitOk = 0, kExitFailed = 1, kExitUsage = 2, kExitNoDevice = 77 };

/// The data of one chapter run, as the harness sees it: inputs, the output every
/// stage writes, and the CPU reference that output is checked against.
class Problem {
 public:
  virtual ~Problem() = default;
  /// `int32`, `float32`, ... for the report header.
  virtual std::string element_type() const = 0;
  /// The fewest bytes the algorithm must move through device memory (each input read
  /// once, each output written once): the numerator of every GB/s in the table.
  virtual double bytes_moved() const = 0;
  /// Overwrites the output with a poison pattern, so that unwritten elements fail the check.
  virtual void poison_output() = 0;
  /// Copies the output back and compares it with the reference.
  virtual Check check_output() = 0;
  /// Recomputes the reference on the CPU (timed as the table's `cpu` row).
  virtual void run_cpu_reference() = 0;
};

/// One row of a chapter: a numbered stage of its own, or a library baseline.
/// @tparam P the chapter's Problem type, whose buffers the stage reads and writes.
template <class P>
struct Stage {
  int number = 0;  ///< 1, 2, ... ; 0 for library rows
  std::string name;
  std::string lesson;  ///< what changed from the previous stage and why it should be faster
  RowKind kind = RowKind::kernel;
  /// Enqueues every launch of the stage on the stream. Allocates nothing (workspace
  /// belongs to the problem, allocated before timing).
  std::function<void(P&, cudaStream_t)> run;

  StageInfo info() const { return {number, name, lesson, kind}; }
};

/// The StageInfo of each stage, for ChapterCli.
template <class P>
std::vector<StageInfo> describe(const std::vector<Stage<P>>& stages) {
  std::vector<StageInfo> infos;
  for (const auto& stage : stages) infos.push_back(stage.info());
  return infos;
}

/// A stage bound to its problem: what the (non-template) measuring code runs.
struct BoundStage {
  StageInfo info;
  GpuWork work;
};

/// One chapter run on one GPU: picks the device, measures the memcpy baseline, and
/// runs stages through verification, timing and the report.
class Session {
 public:
  /// Opens the device named by --device.
  /// @throws NoDeviceError without a GPU; UsageError for a --device that does not exist.
  explicit Session(const ChapterCli& cli);

  const DeviceInfo& device() const { return device_; }
  const CommonOptions& options() const { return cli_.options(); }
  TimingOptions timing() const;
  L2Flusher& flusher() { return *flusher_; }
  /// Device-to-device cudaMemcpy bandwidth (read + write), measured once per session.
  double memcpy_gbps();

  /// @throws UsageError when @p bytes of device buffers would not fit in free memory.
  void require_device_bytes(double bytes) const;

  /// Verifies, times and reports the selected stages (plus the CPU reference row).
  /// @return kExitOk, or kExitFailed if any check failed.
  template <class P>
  int run(const std::vector<Stage<P>>& stages, P& problem) {
    std::vector<BoundStage> bound;
    for (const Stage<P>& stage : stages)
      bound.push_back({stage.info(), [&problem, &stage](cudaStream_t stream) { stage.run(problem, stream); }});
    return run_bound(bound, problem);
  }

  /// The same for stages already bound to their problem.
  int run_bound(const std::vector<BoundStage>& stages, Problem& problem);

  /// Measures one stage: poison, run, check, time, check again.
  ReportRow measure(const BoundStage& stage, Problem& problem);

  /// Prints @p report in --format (and writes --output), as run() does.
  void publish(const Report& report) const;

  /// A report with the header facts filled in and no rows.
  Report new_report(const Problem& problem);

 private:
  const ChapterCli& cli_;
  DeviceInfo device_;
  std::unique_ptr<L2Flusher> flusher_;
  double memcpy_gbps_ = 0.0;
};

/// Runs a chapter's main body, turning exceptions into one line and an exit code:
/// UsageError 2, NoDeviceError 77, CudaError and anything else 1.
int run_main(const char* program, const std::function<int()>& body);

}  // namespace stepwise
