// Chapter 00's spec: the copy problem, --latency, and the run of the table.
#include "chapter.hpp"

#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <vector>

#include "bandwidth.hpp"
#include "host/data.hpp"
#include "host/device_buffer.hpp"
#include "host/host_memory.hpp"
#include "host/mode_options.hpp"
#include "latency.hpp"

namespace stepwise::bandwidth {
namespace {

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
  double bytes_moved() const override { return copy_bytes_moved(input_.size()); }
  void poison_output() override { poison(out_); }
  Check check_output() override { return compare_exact(out_.download(), input_); }
  void run_cpu_reference() override {
    std::memcpy(scratch_.data(), input_.data(), input_.size() * sizeof(std::int32_t));
  }

  /// Runs @p stage on this problem's buffers.
  void launch(const CopyStage& stage, const LaunchShape& shape, cudaStream_t stream) {
    stage.launch(in_.data(), out_.data(), input_.size(), shape, stream);
  }

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

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = [](const Plan&) {
    return ChapterInfo{"00",
                       "bandwidth",
                       "copy kernels against cudaMemcpy: the ceiling of every chapter",
                       std::uint64_t{1} << 28,
                       1,
                       "std::memcpy of the input on the host"};
  };
  spec.add_options = [](ChapterCli& cli, Plan& plan) {
    CLI::Option* latency = cli.add_flag(
        "--latency", plan.latency,
        "Measure the load latency with a pointer chase over L2 / 4, 4 x L2 and at least 2 GiB, and what Little's law "
        "asks of a copy "
        "at memcpy speed (the memcpy timed as the table's, with --reps of at least 10, --warmup and --flush)");
    // The chase's sizes come from L2, and it prints one text: --n, --stage, --sweep, --format,
    // --compact and --output would do nothing.
    for (const char* name : {"--n", "--stage", "--sweep", "--format", "--compact", "--output"})
      latency->excludes(cli.option(name));
  };
  spec.stages = [](const Plan&) { return describe(copy_stages()); };
  spec.require_host_memory = [](const Plan& plan, const CommonOptions& options) {
    if (!plan.latency) require_host_bytes(copy_host_bytes(options.n), n_as_given(options));
  };
  spec.run = [](Session& session, const Plan& plan) {
    if (plan.latency) {
      std::cout << latency_report(session.device().l2_bytes, session.device().sm_count, session.memcpy_gbps(),
                                  session.options().seed);
      return static_cast<int>(kExitOk);
    }
    const std::size_t n = session.options().n;
    session.require_device_bytes(2.0 * static_cast<double>(n) * sizeof(std::int32_t));
    CopyProblem problem(n, session.options().seed);
    return session.run(copy_stages(), problem);
  };
  spec.problems = {{"copy", {}}};
  return spec;
}

}  // namespace stepwise::bandwidth
