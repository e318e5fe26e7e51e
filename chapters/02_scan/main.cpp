// Chapter 02: prefix scan. From the textbook block scans to the single-pass scan with decoupled
// look-back, against cub::DeviceScan on the same data. The stages are in scan.cpp's table, one
// file each under stages/; the chapter's options in options.hpp. --analyze prints the bank
// conflicts of the transposes and of Blelloch's tree, and a look-back example, without a GPU
// (--format json for tools/plot).
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "host/harness.hpp"
#include "host/host_memory.hpp"
#include "host/mode_options.hpp"
#include "options.hpp"
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
    ChapterOptions options;
    add_chapter_options(cli, options);
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    if (options.analyze) {
      std::cout << analysis(cli, options);
      return static_cast<int>(kExitOk);
    }
    const std::optional<LaunchShape> tile = single_pass_tile(cli, options);
    const ScanOptions scan = scan_options(options);
    require_host_bytes(host_bytes(options, cli.options().n), n_as_given(cli));  // before the GPU opens: not 77
    return options.type == "float32" ? run<FloatAdd>(cli, scan, tile) : run<WrappingAdd>(cli, scan, tile);
  });
}
