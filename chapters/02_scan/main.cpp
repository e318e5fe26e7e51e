// Chapter 02: prefix scan. From the textbook block scans to the single-pass scan with
// decoupled look-back, against cub::DeviceScan on the same data.
//
// Stages (each row of the table):
//   1 hillis-steele  Hillis–Steele per block of 256, block totals scanned recursively, added back
//   2 blelloch       work-efficient up-sweep/down-sweep per block of 512, same recursion
//   3 rts-vt8        reduce-then-scan, 128 x 8 register tiles transposed through shared memory
//   4 rts-vt7        the same with VT = 7: conflict-free transposes
//   5 rts-shuffle    warp shuffles for the parallel scan of the per-thread totals
//   6 single-pass    one pass, decoupled look-back over published tile prefixes
//   lib cub          cub::DeviceScan::ExclusiveSum / InclusiveSum (matches --scan)
//
// Options beyond the common ones: --type int32|float32, --scan exclusive|inclusive,
// --analyze [--nt NT] [--vt VT ...] (the bank-conflict table; CPU only), --sweep (stage 6
// at every compiled NT x VT), --nt/--vt without --analyze pick stage 6's tile shape.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bank_conflicts.hpp"
#include "data.hpp"
#include "device_buffer.hpp"
#include "harness.hpp"
#include "scan_reference.hpp"
#include "scan_stages.hpp"

namespace {

using namespace stepwise;
using namespace stepwise::scan;

const ChapterInfo kChapter = {"02",
                              "scan",
                              "prefix scan: Hillis–Steele to single-pass decoupled look-back, against CUB",
                              std::uint64_t{1} << 28,
                              0,
                              "sequential scan on the host (uint32 wrap-around for int32, double for float32)"};

template <class T>
std::vector<T> make_input(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    // The full int32 range: negative values, and prefixes that wrap around constantly.
    return random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
  } else {
    return random_floats(n, seed, -1.0f, 1.0f);  // mixed signs: prefixes wander, cancellation happens
  }
}

/// Input, output, reference and workspace of one scan (int32 or float32, exclusive or inclusive).
template <class Op>
class ScanProblem final : public Problem {
 public:
  using T = typename Op::value_type;

  ScanProblem(std::size_t n, std::uint64_t seed, ScanKind kind)
      : kind_(kind),
        input_(make_input<T>(n, seed)),
        in_(input_),
        out_(n),
        workspace_(n, sizeof(T)),
        has_cub_(n <= static_cast<std::size_t>(INT_MAX)) {
    if (has_cub_) cub_temp_ = DeviceBuffer<unsigned char>(std::max<std::size_t>(1, cub_scan_temp_bytes<Op>(n, kind)));
    if constexpr (std::is_same_v<T, float>) scale_ = float_error_scale(input_);  // see scan_reference.hpp
    run_cpu_reference();
  }

  std::string element_type() const override { return std::is_same_v<T, float> ? "float32" : "int32"; }
  double bytes_moved() const override { return 2.0 * sizeof(T) * input_.size(); }
  void poison_output() override { poison(out_); }
  Check check_output() override {
    if constexpr (std::is_same_v<T, float>)
      return compare_within(out_.download(), reference_, scale_, kFloatTolerance);
    else
      return compare_exact(out_.download(), reference_);
  }
  void run_cpu_reference() override {
    if constexpr (std::is_same_v<T, float>) {
      reference_ = float_reference(input_, kind_);
    } else {
      reference_.resize(input_.size());
      sequential_scan<Op>(input_.data(), reference_.data(), input_.size(), kind_);
    }
  }

  const T* in() const { return in_.data(); }
  T* out() { return out_.data(); }
  std::size_t n() const { return input_.size(); }
  ScanKind kind() const { return kind_; }
  ScanWorkspace& workspace() { return workspace_; }
  bool has_cub() const { return has_cub_; }
  void* cub_temp() { return cub_temp_.data(); }
  std::size_t cub_temp_bytes() const { return cub_temp_.size(); }

 private:
  using Reference = std::conditional_t<std::is_same_v<T, float>, double, T>;
  ScanKind kind_;
  std::vector<T> input_;
  std::vector<Reference> reference_;
  std::vector<double> scale_;
  DeviceBuffer<T> in_;
  DeviceBuffer<T> out_;
  ScanWorkspace workspace_;
  bool has_cub_;
  DeviceBuffer<unsigned char> cub_temp_;
};

const char* kCubLesson = "cub::DeviceScan::ExclusiveSum / InclusiveSum (as --scan), same data, same timing";

/// The chapter's rows; stage 6 at @p shape when given. The CUB row needs n <= 2^31 - 1.
template <class Op>
std::vector<Stage<ScanProblem<Op>>> scan_stages(std::optional<TileShape> shape, bool with_cub) {
  using P = ScanProblem<Op>;
  std::vector<Stage<P>> stages;
  for (const ScanAlgorithm<Op>& algorithm : scan_algorithms<Op>()) {
    Stage<P> stage{algorithm.number, algorithm.name, algorithm.lesson, RowKind::kernel,
                   [launch = algorithm.launch](P& p, cudaStream_t stream) {
                     launch(p.in(), p.out(), p.n(), p.kind(), p.workspace(), stream);
                   }};
    if (algorithm.number == 6 && shape) {
      stage.lesson += " (" + std::to_string(shape->nt) + "x" + std::to_string(shape->vt) + ", back-off " +
                      std::to_string(shape->backoff_ns) + " ns" + (shape->speculative ? "" : ", ticket first") + ")";
      stage.run = [shape = *shape](P& p, cudaStream_t stream) {
        scan_single_pass_shaped<Op>(shape, p.in(), p.out(), p.n(), p.kind(), p.workspace(), stream);
      };
    }
    stages.push_back(stage);
  }
  if (with_cub)
    stages.push_back({0, "cub", kCubLesson, RowKind::library, [](P& p, cudaStream_t stream) {
                        cub_scan<Op>(p.in(), p.out(), p.n(), p.kind(), p.cub_temp(), p.cub_temp_bytes(), stream);
                      }});
  return stages;
}

/// --sweep: stage 6 at every compiled NT x VT, checked and timed; then CUB; the best shape printed.
template <class Op>
int sweep(Session& session, ScanProblem<Op>& problem) {
  Report report = session.new_report(problem);
  bool all_passed = true;
  std::optional<TileShape> best_shape;
  double best_ms = 0.0;
  for (const TileShape shape : single_pass_sweep_shapes()) {
    const std::string name = "single-pass " + std::to_string(shape.nt) + "x" + std::to_string(shape.vt) +
                             (shape.backoff_ns != 0 ? " backoff " + std::to_string(shape.backoff_ns) + "ns" : "") +
                             (shape.speculative ? "" : " ticket-first");
    const BoundStage bound{{6, name, "decoupled look-back, tile shape NT x VT", RowKind::kernel},
                           [&problem, shape](cudaStream_t stream) {
                             scan_single_pass_shaped<Op>(shape, problem.in(), problem.out(), problem.n(),
                                                         problem.kind(), problem.workspace(), stream);
                           }};
    ReportRow row = session.measure(bound, problem);
    if (row.check != "PASS") all_passed = false;
    if (row.check == "PASS" && (!best_shape || row.time->median_ms < best_ms)) {
      best_shape = shape;
      best_ms = row.time->median_ms;
    }
    report.rows.push_back(row);
  }
  double cub_ms = 0.0;
  if (problem.has_cub()) {
    const BoundStage cub{{0, "cub", kCubLesson, RowKind::library}, [&problem](cudaStream_t stream) {
                           cub_scan<Op>(problem.in(), problem.out(), problem.n(), problem.kind(), problem.cub_temp(),
                                        problem.cub_temp_bytes(), stream);
                         }};
    ReportRow row = session.measure(cub, problem);
    if (row.check != "PASS") all_passed = false;
    if (row.time) cub_ms = row.time->median_ms;
    report.rows.push_back(row);
  }
  derive_columns(report);
  session.publish(report);
  if (best_shape) {
    std::cout << "sweep: best single-pass tile " << best_shape->nt << " x " << best_shape->vt << ", back-off "
              << best_shape->backoff_ns << " ns" << (best_shape->speculative ? "" : ", ticket first") << ": "
              << std::fixed << std::setprecision(3) << best_ms << " ms";
    if (cub_ms > 0.0) std::cout << " (" << std::setprecision(2) << cub_ms / best_ms << "x CUB)";
    std::cout << "\n";
  }
  return all_passed ? kExitOk : kExitFailed;
}

template <class Op>
int run_chapter(const ChapterCli& cli, ScanKind kind, std::optional<TileShape> shape, bool run_sweep) {
  using T = typename Op::value_type;
  Session session(cli);
  const std::size_t n = cli.options().n;
  session.require_device_bytes(2.0 * sizeof(T) * n + static_cast<double>(scan_workspace_bytes(n, sizeof(T))));
  ScanProblem<Op> problem(n, cli.options().seed, kind);
  if (!problem.has_cub()) std::cout << "note: no CUB row above n = 2^31 - 1 (CUB is called with int offsets)\n";
  if (run_sweep) return sweep(session, problem);
  const std::vector<Stage<ScanProblem<Op>>> stages = scan_stages<Op>(shape, problem.has_cub());
  return session.run(stages, problem);
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argv[0], [&] {
    ChapterCli cli(kChapter, describe(scan_stages<WrappingAdd>(std::nullopt, true)));
    std::string type = "int32";
    std::string scan_kind = "exclusive";
    bool analyze = false;
    bool run_sweep = false;
    int nt = 0;
    std::vector<int> vts;
    cli.app()
        .add_option("--type", type, "Element type: int32 (wrapping) or float32")
        ->check(CLI::IsMember({"int32", "float32"}));
    cli.app()
        .add_option("--scan", scan_kind, "exclusive or inclusive (the CUB row matches)")
        ->check(CLI::IsMember({"exclusive", "inclusive"}));
    cli.app().add_flag("--analyze", analyze,
                       "Print the transpose bank-conflict table for --nt and --vt (default 128; 8 and 7) and exit; "
                       "needs no GPU");
    cli.app().add_option("--nt", nt, "Threads per block: for --analyze, or stage 6's tile (a --sweep shape)");
    cli.app().add_option("--vt", vts, "Values per thread: one or more for --analyze, one for stage 6's tile");
    unsigned backoff_ns = kSinglePassShape.backoff_ns;
    cli.app()
        .add_option("--backoff-ns", backoff_ns, "Stage 6's look-back back-off: first sleep in ns (0: plain spin)")
        ->capture_default_str()
        ->check(CLI::Range(0u, 100000u));
    bool ticket_first = false;
    cli.app().add_flag("--ticket-first", ticket_first,
                       "Stage 6 draws its ticket before loading (no speculative load of tile blockIdx.x)");
    cli.app().add_flag("--sweep", run_sweep, "Time stage 6 at every compiled NT x VT and print the best");
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;

    if (analyze) {
      try {
        std::cout << bank_conflict_table(nt == 0 ? 128 : nt, vts.empty() ? std::vector<int>{8, 7} : vts);
      } catch (const std::invalid_argument& error) {
        throw UsageError(error.what());
      }
      return static_cast<int>(kExitOk);
    }

    std::optional<TileShape> shape;
    if (nt != 0 || !vts.empty()) {
      if (nt == 0 || vts.size() != 1) throw UsageError("--nt and --vt: give both, one value each, to shape stage 6");
      const std::vector<TileShape> compiled = single_pass_sweep_shapes();
      if (std::none_of(compiled.begin(), compiled.end(),
                       [&](const TileShape& s) { return s.nt == nt && s.vt == vts.front(); }))
        throw UsageError(
            "--nt " + std::to_string(nt) + " --vt " + std::to_string(vts.front()) +
            ": not a compiled tile shape (NT in {128, 256}, VT in {7, 8, 11, 12, 15, 16, 23, 24, 31, 32})");
      shape = TileShape{nt, vts.front(), backoff_ns, !ticket_first};
    } else if (backoff_ns != kSinglePassShape.backoff_ns || ticket_first) {
      shape = TileShape{kSinglePassShape.nt, kSinglePassShape.vt, backoff_ns, !ticket_first};
    }
    const ScanKind kind = scan_kind == "inclusive" ? ScanKind::inclusive : ScanKind::exclusive;
    if (type == "float32") return run_chapter<FloatAdd>(cli, kind, shape, run_sweep);
    return run_chapter<WrappingAdd>(cli, kind, shape, run_sweep);
  });
}
