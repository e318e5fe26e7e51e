// The template chapter's spec: its options bound to the plan, its problem, its analysis and its run.
#include "chapter.hpp"

#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "host/data.hpp"
#include "host/device_buffer.hpp"
#include "host/host_memory.hpp"
#include "host/launch.hpp"
#include "host/mode_options.hpp"
#include "host/sizes.hpp"
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
  void run_cpu_reference() override { reference_ = square_on_cpu(input_); }

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

/// What --analyze prints: for each kernel row, the load instructions it issues for n elements
/// and the grid it launches, read from the row's traits and shape.
std::string analyze(const Plan&, const CommonOptions& options) {
  const std::uint64_t n = options.n;
  std::ostringstream out;
  out << "n = " << format_grouped(static_cast<std::int64_t>(n)) << " int32: each stage reads and writes "
      << format_bytes(4.0 * static_cast<double>(n)) << "\n";
  out << "  #  stage             bytes/load  load instructions  grid\n";
  for (const SquareStage& stage : square_stages()) {
    const int per_load = stage.traits.elements_per_load;
    if (per_load == 0) continue;                              // the library chooses its own loads and grid
    const std::uint64_t loads = n / per_load + n % per_load;  // full vectors, then the scalar tail
    std::ostringstream grid;
    if (stage.traits.grid_stride)
      grid << stage.shape.blocks_per_sm << " blocks/SM of " << stage.shape.threads << ", "
           << std::max(stage.shape.items, 1) << " loads in flight per thread";
    else
      grid << format_grouped(static_cast<std::int64_t>(ceil_div(n, stage.shape.threads))) << " blocks of "
           << stage.shape.threads;
    out << std::setw(3) << stage.number << "  " << std::left << std::setw(16) << stage.name << std::right
        << std::setw(12) << 4 * per_load << std::setw(19) << format_grouped(static_cast<std::int64_t>(loads)) << "  "
        << grid.str() << "\n";
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
        ->transform(decimal_in(0, std::numeric_limits<std::int32_t>::max()))
        ->excludes(cli.option("--analyze"));
  };
  spec.stages = [](const Plan&) { return describe(square_stages()); };
  spec.require_host_memory = [](const Plan&, const CommonOptions& options) {
    // The input, the reference and the downloaded output.
    require_host_bytes(3.0 * sizeof(std::int32_t) * static_cast<double>(options.n), n_as_given(options));
  };
  spec.analyze = {"Print each stage's load instructions and grid for --n and exit (no GPU needed)",
                  {"--n"},
                  {Format::table},
                  analyze};
  spec.run = [](Session& session, const Plan& plan) {
    session.require_device_bytes(2.0 * sizeof(std::int32_t) * session.options().n);
    SquareProblem problem(session.options().n, plan, session.options().seed);
    return session.run(square_stages(), problem);
  };
  spec.problems = {{"square int32", {}}};
  return spec;
}

}  // namespace stepwise::square
