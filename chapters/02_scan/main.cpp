// Chapter 02: prefix scan. From the textbook block scans to the single-pass scan with decoupled
// look-back, against cub::DeviceScan on the same data. The stages are in scan.cpp's table, one
// file each under stages/; --analyze prints the bank conflicts of the transposes and of
// Blelloch's tree, and a look-back example, without a GPU (--format json for tools/plot).
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bank_conflicts.hpp"
#include "harness.hpp"
#include "scan.hpp"
#include "scan_reference.hpp"

namespace {

using namespace stepwise;
using namespace stepwise::scan;

const ChapterInfo kChapter = {"02",
                              "scan",
                              "prefix scan: Hillis–Steele to single-pass decoupled look-back, against CUB",
                              std::uint64_t{1} << 28,
                              0,
                              "sequential scan on the host (uint32 wrap-around for int32, double for float32)"};

/// Input, output, reference and workspace of one scan (int32 or float32, exclusive or inclusive).
template <class Op>
class ScanProblem final : public Problem {
 public:
  using T = typename Op::value_type;
  ScanProblem(std::size_t n, std::uint64_t seed, ScanKind kind)
      : input_(scan_input<Op>(n, seed)),
        reference_(input_, kind),
        in_(input_),
        out_(n),
        workspace_(make_workspace<Op>(n)) {}
  std::string element_type() const override { return std::is_same_v<T, float> ? "float32" : "int32"; }
  double bytes_moved() const override { return 2.0 * sizeof(T) * input_.size(); }  // read n, write n
  void poison_output() override { poison(out_); }
  Check check_output() override { return reference_.check(out_.download()); }
  void run_cpu_reference() override { reference_.rescan(input_); }
  /// Runs one row of the table on this problem's buffers.
  void launch(ScanLaunch<Op> launch, const ScanOptions& options, const LaunchShape& shape, cudaStream_t stream) {
    launch(in_.data(), out_.data(), input_.size(), options, workspace_, shape, stream);
  }

 private:
  std::vector<T> input_;
  ScanReference<Op> reference_;
  DeviceBuffer<T> in_, out_;
  ScanWorkspace workspace_;
};

template <class Op>
int run(const ChapterCli& cli, const ScanOptions& options, const std::optional<LaunchShape>& tile) {
  Session session(cli);
  const std::size_t n = cli.options().n, bytes = sizeof(typename Op::value_type);
  session.require_device_bytes(2.0 * bytes * n + static_cast<double>(scan_workspace_bytes(n, bytes)));
  std::vector<ScanStage<Op>> stages = scan_stages<Op>();
  if (tile) set_tile(stages, *tile);
  if (n > kCubMaxN) {
    stages.erase(std::remove_if(stages.begin(), stages.end(), [](auto& s) { return s.kind == RowKind::library; }),
                 stages.end());
    session.note("no CUB row above n = 2^31 - 1 (CUB is called with int offsets)");
  }
  ScanProblem<Op> problem(n, cli.options().seed, options.kind);
  return session.run(stages, problem, [&](ScanLaunch<Op> launch, const LaunchShape& shape, cudaStream_t stream) {
    problem.launch(launch, options, shape, stream);
  });
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argv[0], [&] {
    ChapterCli cli(kChapter, describe(scan_stages<WrappingAdd>()));
    std::string type = "int32", scan = "exclusive";
    int nt = 128;
    std::vector<int> vts = {8, 7};
    bool analyze = false, ticket_first = false, scalar_transpose = false, vector_transpose = false;
    ScanOptions options;
    CLI::App& app = cli.app();
    app.add_option("--type", type, "Element type: int32 (added as uint32, wrapping) or float32")
        ->capture_default_str()
        ->check(CLI::IsMember({"int32", "float32"}));
    app.add_option("--scan", scan, "exclusive or inclusive (the CUB row follows)")
        ->capture_default_str()
        ->check(CLI::IsMember({"exclusive", "inclusive"}));
    const std::string single_pass_tile = describe(single_pass<WrappingAdd>().shape);
    CLI::Option* nt_given =
        app.add_option(
               "--nt", nt,
               "Threads per block: of --analyze's tile, or with --vt of the single-pass stage's (default there: " +
                   single_pass_tile + ")")
            ->capture_default_str()
            ->transform(decimal_in(32, 1024))
            ->excludes(cli.option("--sweep"));
    CLI::Option* vt_given =
        app.add_option("--vt", vts,
                       "Values per thread: one or more for --analyze, or one with --nt for the single-pass stage")
            ->capture_default_str()
            ->transform(decimal_in(1, 32))
            ->excludes(cli.option("--sweep"));
    app.add_option("--backoff-ns", options.backoff_ns,
                   "Single pass, look-back: the first back-off sleep in ns while a predecessor has published nothing, "
                   "doubling up to 8x (0: spin)")
        ->capture_default_str()
        ->transform(decimal_in(0, 100000));
    app.add_option("--first-poll-ns", options.first_poll_ns,
                   "Single pass, look-back: sleep this long after publishing the tile's aggregate, before the first "
                   "poll (0: poll at once)")
        ->capture_default_str()
        ->transform(decimal_in(0, 100000));
    cli.add_flag("--ticket-first", ticket_first, "Single pass: draw the ticket before loading (no speculative load)");
    cli.add_flag("--scalar-transpose", scalar_transpose,
                 "Reduce-then-scan stages: 32-bit shared accesses on the transposes' thread-order side (volatile), "
                 "as Baxter's talk counts them, instead of the compiler's 128-bit ones at VT = 8");
    cli.add_flag("--vector-transpose", vector_transpose,
                 "Single pass, tiles with VT a multiple of 4: explicit 128-bit shared accesses on the transposes' "
                 "thread-order side");
    CLI::Option* analyze_flag = cli.add_flag(
        "--analyze", analyze,
        "Print the bank conflicts of the transposes (for --nt and --vt) and of Blelloch's tree, and a look-back "
        "example, as a table or (--format json) for tools/plot; needs no GPU");
    for (const char* name : {"--stage", "--type", "--scan", "--sweep", "--backoff-ns", "--first-poll-ns",
                             "--ticket-first", "--scalar-transpose", "--vector-transpose", "--output", "--compact",
                             "--n", "--reps", "--warmup", "--seed", "--warm-cache", "--flush", "--device"})
      analyze_flag->excludes(cli.option(name));
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;

    std::optional<LaunchShape> tile;
    try {
      if (analyze) {
        const Format format = cli.options().format;
        if (format != Format::table && format != Format::json)
          throw std::invalid_argument(std::string("--format ") + to_string(format) +
                                      ": --analyze prints table or json");
        std::cout << (format == Format::json ? analysis_json(nt, vts) : bank_conflict_table(nt, vts));
        return static_cast<int>(kExitOk);
      }
      if (nt_given->count() + vt_given->count() > 0) {
        if (nt_given->count() == 0 || vts.size() != 1) throw std::invalid_argument("give both, one value each");
        tile = LaunchShape{nt, vts.front()};
        std::vector<ScanStage<WrappingAdd>> stages = scan_stages<WrappingAdd>();
        set_tile(stages, *tile);  // refuses a tile the single pass does not compile, before the GPU opens
      }
    } catch (const std::invalid_argument& error) {
      throw UsageError(analyze ? std::string(error.what()) : std::string("--nt, --vt: ") + error.what());
    }
    options.kind = scan == "inclusive" ? ScanKind::inclusive : ScanKind::exclusive;
    options.speculative = !ticket_first;
    options.scalar_transpose = scalar_transpose;
    options.vector_transpose = vector_transpose;
    return type == "float32" ? run<FloatAdd>(cli, options, tile) : run<WrappingAdd>(cli, options, tile);
  });
}
