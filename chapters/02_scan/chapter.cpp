// Chapter 02's spec: its options bound to the plan, its problem, --analyze and its run.
#include "chapter.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bank_conflicts.hpp"
#include "host/host_memory.hpp"
#include "host/mode_options.hpp"
#include "host/sizes.hpp"
#include "scan_reference.hpp"

namespace stepwise::scan {
namespace {

ChapterInfo info(const Plan&) {
  return {"02",
          "scan",
          "prefix scan: Hillis–Steele to single-pass decoupled look-back, against CUB",
          std::uint64_t{1} << 28,
          0,
          "sequential scan on the host (uint32 wrap-around for int32, double for float32)"};
}

/// Input, output, reference and workspace of one scan (int32 or float32, exclusive or inclusive).
template <class Op>
class ScanProblem final : public Problem {
 public:
  using T = typename Op::value_type;
  ScanProblem(std::size_t n, std::uint64_t seed, const ScanOptions& options)
      : options_(options),
        input_(scan_input<Op>(n, seed)),
        reference_(input_, options.kind),
        in_(input_),
        out_(n),
        workspace_(make_workspace<Op>(n)) {}
  std::string element_type() const override { return std::is_same_v<T, float> ? "float32" : "int32"; }
  double bytes_moved() const override { return 2.0 * sizeof(T) * input_.size(); }  // read n, write n
  void poison_output() override { poison(out_); }
  Check check_output() override { return reference_.check(out_.download()); }
  void run_cpu_reference() override { reference_.rescan(input_); }
  /// Runs @p stage on this problem's buffers.
  void launch(const ScanStage<Op>& stage, const LaunchShape& shape, cudaStream_t stream) {
    stage.launch(in_.data(), out_.data(), input_.size(), options_, workspace_, shape, stream);
  }

 private:
  ScanOptions options_;
  std::vector<T> input_;
  ScanReference<Op> reference_;
  DeviceBuffer<T> in_, out_;
  ScanWorkspace workspace_;
};

template <class Op>
int run(Session& session, const Plan& plan) {
  const std::size_t n = session.options().n, bytes = sizeof(typename Op::value_type);
  session.require_device_bytes(2.0 * bytes * n + static_cast<double>(scan_workspace_bytes(n, bytes)));
  std::vector<ScanStage<Op>> stages = scan_stages<Op>();
  if (plan.tile) set_tile(stages, *plan.tile);
  if (n > kCubMaxN) {
    stages.erase(std::remove_if(stages.begin(), stages.end(), [](auto& s) { return s.kind == RowKind::library; }),
                 stages.end());
    session.note("no CUB row above n = 2^31 - 1 (CUB is called with int offsets)");
  }
  ScanProblem<Op> problem(n, session.options().seed, plan.scan);
  return session.run(stages, problem);
}

void add_options(ChapterCli& cli, Plan& plan) {
  CLI::App& app = cli.app();
  CLI::Option* analyze = cli.option("--analyze");
  app.add_option_function<std::string>(
         "--type",
         [&plan](const std::string& type) {
           plan.type = type == "float32" ? ElementType::float32 : ElementType::int32;
         },
         "Element type: int32 (added as uint32, wrapping) or float32")
      ->default_str("int32")
      ->check(CLI::IsMember({"int32", "float32"}))
      ->excludes(analyze);
  app.add_option_function<std::string>(
         "--scan",
         [&plan](const std::string& scan) {
           plan.scan.kind = scan == "inclusive" ? ScanKind::inclusive : ScanKind::exclusive;
         },
         "exclusive or inclusive (the CUB row follows)")
      ->default_str("exclusive")
      ->check(CLI::IsMember({"exclusive", "inclusive"}))
      ->excludes(analyze);
  const std::string single_pass_tile = describe(single_pass<WrappingAdd>().shape);
  app.add_option_function<int>(
         "--nt",
         [&plan](int nt) {
           plan.nt = nt;
           plan.nt_given = true;
         },
         "Threads per block: of --analyze's tile, or with --vt of the single-pass stage's (default there: " +
             single_pass_tile + ")")
      ->default_str(std::to_string(plan.nt))
      ->transform(decimal_in(32, 1024))
      ->excludes(cli.option("--sweep"));
  app.add_option_function<std::vector<int>>(
         "--vt",
         [&plan](const std::vector<int>& vts) {
           plan.vts = vts;
           plan.vt_given = true;
         },
         "Values per thread: one or more for --analyze, or one with --nt for the single-pass stage")
      ->default_str("[8,7]")
      ->transform(decimal_in(1, 32))
      ->excludes(cli.option("--sweep"));
  app.add_option("--backoff-ns", plan.scan.backoff_ns,
                 "Single pass, look-back: the first back-off sleep in ns while a predecessor has published nothing, "
                 "doubling up to 8x (0: spin)")
      ->capture_default_str()
      ->transform(decimal_in(0, 100000))
      ->excludes(analyze);
  app.add_option("--first-poll-ns", plan.scan.first_poll_ns,
                 "Single pass, look-back: sleep this long after publishing the tile's aggregate, before the first "
                 "poll (0: poll at once)")
      ->capture_default_str()
      ->transform(decimal_in(0, 100000))
      ->excludes(analyze);
  app.add_flag_function(
         "--speculative-load", [&plan](std::int64_t) { plan.scan.speculative = true; },
         "Single pass: load tile blockIdx.x while the ticket is drawn, and reload if the ticket differs (default: "
         "the ticket first, then the tile)")
      ->disable_flag_override()
      ->excludes(analyze);
  cli.add_flag("--scalar-transpose", plan.scan.scalar_transpose,
               "Reduce-then-scan stages: 32-bit shared accesses on the transposes' thread-order side (volatile), "
               "as Baxter's talk counts them, instead of the compiler's 128-bit ones at VT = 8")
      ->excludes(analyze);
  cli.add_flag("--vector-transpose", plan.scan.vector_transpose,
               "Single pass, tiles with VT a multiple of 4: explicit 128-bit shared accesses on the transposes' "
               "thread-order side")
      ->excludes(analyze);
}

/// Sets the single pass's tile from --nt and --vt, refusing (before the GPU opens, and with
/// --check-options) a tile the run would refuse.
/// @throws UsageError (`--nt, --vt: ...`) unless both are given, --vt once, for a tile the single
///   pass compiles (and a VT that is a multiple of 4 with --vector-transpose).
void validate(Plan& plan, const CommonOptions& options) {
  if (options.analyze || (!plan.nt_given && !plan.vt_given)) return;  // --analyze reads --nt and --vt itself
  try {
    if (!plan.nt_given || plan.vts.size() != 1) throw std::invalid_argument("give both, one value each");
    const LaunchShape tile{plan.nt, plan.vts.front()};
    if (plan.scan.vector_transpose && tile.items % 4 != 0)
      throw std::invalid_argument("--vector-transpose needs a VT that is a multiple of 4 (128-bit accesses): " +
                                  std::to_string(tile.items) + " is not");
    std::vector<ScanStage<WrappingAdd>> stages = scan_stages<WrappingAdd>();
    set_tile(stages, tile);  // refuses a tile the single pass does not compile
    plan.tile = tile;
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--nt, --vt: ") + error.what());
  }
}

std::string analysis(const Plan& plan, const CommonOptions& options) {
  try {
    return options.format == Format::json ? analysis_json(plan.nt, plan.vts) : bank_conflict_table(plan.nt, plan.vts);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
}

}  // namespace

double host_bytes(const Plan& plan, std::uint64_t n) {
  // int32: the input, the reference and the output the check downloads. float32: the input,
  // the reference in double and its rerun beside it, each element's error bound (double), and
  // the downloaded output.
  return (plan.type == ElementType::float32 ? 4.0 + 8.0 + 8.0 + 8.0 + 4.0 : 12.0) * static_cast<double>(n);
}

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = info;
  spec.add_options = add_options;
  spec.stages = [](const Plan&) { return describe(scan_stages<WrappingAdd>()); };
  spec.validate = validate;
  spec.require_host_memory = [](const Plan& plan, const CommonOptions& options) {
    require_host_bytes(host_bytes(plan, options.n), n_as_given(options));
  };
  spec.analyze = {
      "Print the bank conflicts of the transposes (for --nt and --vt) and of Blelloch's tree, and a "
      "look-back example, as a table or (--format json) for tools/plot; needs no GPU",
      {"--format"},
      {Format::table, Format::json},
      analysis};
  spec.run = [](Session& session, const Plan& plan) {
    return plan.type == ElementType::float32 ? run<FloatAdd>(session, plan) : run<WrappingAdd>(session, plan);
  };
  spec.problems = {{"exclusive int32", {"--scan", "exclusive", "--type", "int32"}}};
  return spec;
}

}  // namespace stepwise::scan
