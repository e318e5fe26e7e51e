// Chapter 00: memory bandwidth. Copy kernels against cudaMemcpy: the ceiling every other
// chapter's "% memcpy" column is measured against. The stages are in bandwidth.cpp's table,
// one file each under stages/.
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <vector>

#include "bandwidth.hpp"
#include "host/data.hpp"
#include "host/device_buffer.hpp"
#include "host/harness.hpp"
#include "host/host_memory.hpp"
#include "latency.hpp"
#include "host/mode_options.hpp"

namespace {

using namespace stepwise;
using namespace stepwise::bandwidth;

const ChapterInfo kChapter = {"00",
                              "bandwidth",
                              "copy kernels against cudaMemcpy: the ceiling of every chapter",
                              std::uint64_t{1} << 28,
                              1,
                              "std::memcpy of the input on the host"};

/// Input, output and reference of one copy. The reference of a copy is its input.
class CopyProblem final : public Problem {
 public:
  CopyProblem(std::size_t n, std::uint64_t seed)
      : input_(
            random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max())),
        scratch_(n),
        in_(input_),
        out_(n) {}

  std::string element_type() const override { return "int32"; }
  double bytes_moved() const override { return 2.0 * sizeof(std::int32_t) * input_.size(); }
  void poison_output() override { poison(out_); }
  Check check_output() override { return compare_exact(out_.download(), input_); }
  void run_cpu_reference() override {
    std::memcpy(scratch_.data(), input_.data(), input_.size() * sizeof(std::int32_t));
  }

  const std::int32_t* in() const { return in_.data(); }
  std::int32_t* out() { return out_.data(); }
  std::size_t n() const { return input_.size(); }

 private:
  std::vector<std::int32_t> input_;
  std::vector<std::int32_t> scratch_;
  DeviceBuffer<std::int32_t> in_;
  DeviceBuffer<std::int32_t> out_;
};

/// The host memory a copy of @p n elements holds: the input, the CPU row's copy of it, and the
/// output the check downloads.
double copy_host_bytes(std::size_t n) { return 3.0 * sizeof(std::int32_t) * static_cast<double>(n); }

}  // namespace

int main(int argc, char** argv) {
  return run_main(argv[0], [&] {
    ChapterCli cli(kChapter, describe(copy_stages()));
    bool latency = false;
    CLI::Option* latency_flag = cli.add_flag(
        "--latency", latency,
        "Measure the load latency with a pointer chase over 4 x L2 and L2 / 4, and what Little's law asks of a copy "
        "at memcpy speed (the memcpy timed as the table's, with --reps of at least 10, --warmup and --flush)");
    // The chase's sizes come from L2, and it prints one text: --n, --stage, --sweep, --format,
    // --compact and --output would do nothing.
    for (const char* name : {"--n", "--stage", "--sweep", "--format", "--compact", "--output"})
      latency_flag->excludes(cli.option(name));
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    const std::size_t n = cli.options().n;
    if (!latency) require_host_bytes(copy_host_bytes(n), n_as_given(cli));  // before the GPU opens: exit 2, not 77

    Session session(cli);
    if (latency) {
      std::cout << latency_report(session.device().l2_bytes, session.device().sm_count, session.memcpy_gbps(),
                                  cli.options().seed);
      return static_cast<int>(kExitOk);
    }
    session.require_device_bytes(2.0 * static_cast<double>(n) * sizeof(std::int32_t));
    CopyProblem problem(n, cli.options().seed);
    return session.run(copy_stages(), problem, [&](CopyLaunch launch, const LaunchShape& shape, cudaStream_t stream) {
      launch(problem.in(), problem.out(), problem.n(), shape, stream);
    });
  });
}
