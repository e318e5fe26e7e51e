/// @file harness.hpp
/// The chapter harness: a chapter's main is its problem, its options and its stage table.
///
/// @code
///   int main(int argc, char** argv) {
///     return stepwise::run_main(argv[0], [&] {
///       stepwise::ChapterCli cli(kChapter, stepwise::describe(copy_stages()));
///       if (auto code = cli.parse(argc, argv)) return *code;   // --help, --list: 0; bad options: 2
///       stepwise::Session session(cli);                         // the GPU (77 if none)
///       session.require_device_bytes(2.0 * cli.options().n * sizeof(int));
///       CopyProblem problem(cli.options().n, cli.options().seed);
///       return session.run(copy_stages(), problem);  // problem.launch(stage, shape, stream) per row
///     });
///   }
/// @endcode
///
/// For each selected stage the session poisons the output, runs the stage once, checks it
/// against the CPU reference and checks the guard zones of every device buffer, times it
/// (CUDA events, warm-up, median of --reps, L2 flushed before each), and checks again what
/// the timed runs left. A failed check marks the row FAIL, the run goes on, and the exit
/// code is 1. With --sweep, every stage that lists shapes runs at each of them, and its row
/// is the fastest shape that passed.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "host/cli.hpp"
#include "host/device.hpp"
#include "host/report.hpp"
#include "host/stage.hpp"
#include "host/timing.hpp"
#include "host/types.hpp"
#include "host/verify.hpp"

namespace stepwise {

/// No usable GPU (none, or no driver): exit code 77, the conventional "skipped".
class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The data of one chapter run, as the harness sees it: inputs, the output every stage
/// writes, and the CPU reference that output is checked against.
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
  /// The n of the report's header: @p option_n (--n) unless the problem's size comes from
  /// elsewhere (a matrix, read from a file or generated, reports its nonzeros).
  virtual std::uint64_t reported_n(std::uint64_t option_n) const { return option_n; }
  /// Floating-point operations of one run (SpMV: 2 x nonzeros); 0, the default, leaves the
  /// GFLOP/s column out of the table.
  virtual double flops() const { return 0.0; }
};

/// One chapter run on one GPU: opens the device, measures the memcpy baseline, and runs
/// stages through verification, timing and the report.
class Session {
 public:
  /// Opens the device named by --device.
  /// @throws NoDeviceError without a GPU or driver; std::runtime_error for a driver older
  ///   than the runtime; UsageError for a --device that does not exist.
  explicit Session(const ChapterCli& cli);
  ~Session();

  const DeviceInfo& device() const { return device_; }
  const CommonOptions& options() const { return cli_.options(); }

  /// @throws UsageError when @p bytes of device buffers would not fit in free memory; the
  /// message names @p what, the option or input the size comes from as the user typed it
  /// (default: `--n` with its value).
  void require_device_bytes(double bytes, const std::string& what = "") const;

  /// The timing the command line asked for: --reps, --warmup and the flush (--flush, --warm-cache).
  TimingOptions timing() const;

  /// Adds a line to the report's notes (a row left out, and why).
  void note(const std::string& text) { notes_.push_back(text); }

  /// Device-to-device cudaMemcpy bandwidth (bytes read + written), measured once per session
  /// on a buffer of 8 x L2: the "% memcpy" column's 100 %.
  double memcpy_gbps();

  /// Verifies, times and reports the selected stages (each at every sweep shape with
  /// --sweep; with --variants, each followed by its variant rows), then the CPU reference row,
  /// and prints the report in --format.
  /// @param stages the chapter's table
  /// @param problem the data every stage works on, and its reference; it runs a row on its own
  ///   buffers with `problem.launch(stage, shape, stream)`, and may read the row's traits there.
  /// @return kExitOk, or kExitFailed if any check failed.
  template <class Row, class ChapterProblem>
  int run(const std::vector<Row>& stages, ChapterProblem& problem) {
    const std::vector<Row> rows = with_variants(stages);  // a variant row runs only with --variants
    std::vector<Runnable> runnables;
    for (const Row& stage : rows)
      runnables.push_back({stage, [&problem, &stage](const LaunchShape& shape, cudaStream_t stream) {
                             problem.launch(stage, shape, stream);
                           }});
    return run_stages(runnables, problem);
  }

 private:
  /// A stage with its launcher bound to the problem: what the measuring code runs.
  struct Runnable {
    StageInfo info;
    std::function<void(const LaunchShape&, cudaStream_t)> run;
  };

  int run_stages(const std::vector<Runnable>& stages, Problem& problem);
  ReportRow measure(const Runnable& stage, const LaunchShape& shape, Problem& problem);
  /// The shape a stage's row runs at without --sweep: its shape for --n (shape_at), or with
  /// --variants its default shape (said in @p notes when the two differ).
  LaunchShape run_shape(const StageInfo& stage, std::vector<std::string>& notes) const;
  ReportRow sweep(const Runnable& stage, Problem& problem, std::vector<ReportRow>& failures);
  Check verify(Problem& problem);
  void publish(const Report& report) const;

  const ChapterCli& cli_;
  DeviceInfo device_;
  std::unique_ptr<GpuTimer> timer_;
  double memcpy_gbps_ = 0.0;
  std::vector<std::string> notes_;
};

/// Runs a chapter's main body, turning exceptions into one line and an exit code:
/// UsageError 2, NoDeviceError 77, CudaError and anything else 1. A body that returns 0 after a
/// write to stdout failed (`> /dev/full`) exits with 1 and says so (finish_stdout()).
int run_main(const char* program, const std::function<int()>& body);

}  // namespace stepwise
