// The template chapter's spec: its options bound to the plan, its problem and its run.
#include "chapter.hpp"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "host/data.hpp"
#include "host/device_buffer.hpp"
#include "host/launch.hpp"
#include "square.hpp"

namespace stepwise::square {
namespace {

/// The data of one run: the input on the host and the device, the output, the reference.
class SquareProblem final : public Problem {
 public:
  SquareProblem(std::size_t n, const Plan& plan, std::uint64_t seed)
      : input_(random_ints(n, seed, -plan.range, plan.range)), in_(input_), out_(n) {
    run_cpu_reference();
  }

  std::string element_type() const override { return "int32"; }
  double bytes_moved() const override { return 2.0 * sizeof(std::int32_t) * input_.size(); }  // read n, write n
  void poison_output() override { poison(out_); }
  Check check_output() override { return compare_exact(out_.download(), reference_); }
  void run_cpu_reference() override {
    reference_.resize(input_.size());
    for (std::size_t i = 0; i < input_.size(); ++i) reference_[i] = square_wrapping(input_[i]);
  }

  /// Runs @p stage on this problem's buffers.
  void launch(const SquareStage& stage, const LaunchShape& shape, cudaStream_t stream) {
    stage.launch(in_.data(), out_.data(), input_.size(), shape, stream);
  }

 private:
  std::vector<std::int32_t> input_;
  std::vector<std::int32_t> reference_;
  DeviceBuffer<std::int32_t> in_;
  DeviceBuffer<std::int32_t> out_;
};

/// What each stage launches for n elements, without a GPU.
std::string analyze(const Plan&, const CommonOptions& options) {
  std::ostringstream out;
  out << "stage                  threads   blocks\n";
  for (const SquareStage& stage : square_stages()) {
    if (stage.traits.elements_per_thread == 0) continue;  // the library chooses its own grid
    const std::uint64_t threads = ceil_div(options.n, stage.traits.elements_per_thread);
    out << stage.name << std::string(stage.name.size() < 20 ? 20 - stage.name.size() : 1, ' ') << " " << threads << "  "
        << ceil_div(threads, stage.shape.threads) << "\n";
  }
  return out.str();
}

}  // namespace

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = [](const Plan&) {
    return ChapterInfo{"xx",
                       "template",
                       "a chapter to copy: square every element",
                       std::uint64_t{1} << 26,
                       1,
                       "std::transform on the host"};
  };
  spec.add_options = [](ChapterCli& cli, Plan& plan) {
    cli.app()
        .add_option("--range", plan.range, "Inputs are drawn uniformly from [-R, R]")
        ->capture_default_str()
        ->transform(decimal_in(0, std::numeric_limits<std::int32_t>::max()));
  };
  spec.stages = [](const Plan&) { return describe(square_stages()); };
  spec.analyze = {"Print each stage's grid for --n and exit (no GPU needed)", {"--n"}, {Format::table}, analyze};
  spec.run = [](Session& session, const Plan& plan) {
    session.require_device_bytes(2.0 * sizeof(std::int32_t) * session.options().n);
    SquareProblem problem(session.options().n, plan, session.options().seed);
    return session.run(square_stages(), problem);
  };
  return spec;
}

}  // namespace stepwise::square
