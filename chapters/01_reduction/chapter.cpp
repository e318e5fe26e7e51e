// Chapter 01's spec: its options bound to the plan, its problem, --analyze and its run.
#include "chapter.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "host/device_buffer.hpp"
#include "host/host_memory.hpp"
#include "host/mode_options.hpp"
#include "host/sizes.hpp"
#include "reduce_analysis.hpp"
#include "reduce_reference.hpp"
#include "reduction.hpp"

namespace stepwise::reduction {
namespace {

ChapterInfo info(const Plan&) {
  return {"01",
          "reduction",
          "parallel reduction: Harris's kernels 1-7, shuffles, vector loads, one pass, vs CUB",
          std::uint64_t{1} << 26,
          1,
          "serial sum on the host (uint32 wrapping for int32, double for float32)"};
}

/// The input, the one-element output, the workspace, and the reference of one sum on a GPU of
/// `sms` SMs. @tparam T std::uint32_t (the int32 data, summed mod 2^32) or float.
template <class T>
class ReduceProblem final : public Problem {
 public:
  ReduceProblem(std::size_t n, std::uint64_t seed, int sms)
      : input_(random_input<T>(n, seed)), in_(input_), out_(1), workspace_(n), tolerance_(float_sum_tolerance(n, sms)) {
    run_cpu_reference();
  }

  std::string element_type() const override { return std::is_same_v<T, float> ? "float32" : "int32"; }
  double bytes_moved() const override { return static_cast<double>(sizeof(T)) * (input_.size() + 1); }
  void poison_output() override { poison(out_); }
  Check check_output() override { return check_sum(out_.download(), reference_, tolerance_); }
  void run_cpu_reference() override { reference_ = reference_sum(input_); }

  /// Runs @p stage on this problem's buffers.
  void launch(const ReduceStage<T>& stage, const LaunchShape& shape, cudaStream_t stream) {
    stage.launch(in_.data(), out_.data(), input_.size(), workspace_, shape, stream);
  }

 private:
  std::vector<T> input_;
  DeviceBuffer<T> in_;
  DeviceBuffer<T> out_;
  ReduceWorkspace<T> workspace_;
  double tolerance_;
  Reference<T> reference_{};
};

/// Runs the table, --block setting the threads per block of every row it changes.
template <class T>
int run(Session& session, const Plan& plan) {
  const std::size_t n = session.options().n;
  session.require_device_bytes(1.05 * static_cast<double>(n) * sizeof(T) + 16.0 * (1 << 20));
  ReduceProblem<T> problem(n, session.options().seed, session.device().sm_count);
  std::vector<ReduceStage<T>> stages = reduce_stages<T>();
  for (ReduceStage<T>& stage : stages)
    if (plan.block && changed_by(stage, "--block")) stage.shape = with_block(stage.shape, *plan.block);
  return session.run(stages, problem);
}

void add_options(ChapterCli& cli, Plan& plan) {
  cli.app()
      .add_option_function<std::string>(
          "--type",
          [&plan](const std::string& type) {
            plan.type = type == "float32" ? ElementType::float32 : ElementType::int32;
          },
          "Element type: int32 (summed mod 2^32) or float32")
      ->check(CLI::IsMember({"int32", "float32"}))
      ->default_str("int32")
      ->excludes(cli.option("--analyze"));
  cli.app()
      .add_option_function<int>(
          "--block", [&plan](int block) { plan.block = block; },
          "Threads per block of stages 1-10 (11 and 12 keep their tuned shape); with --analyze, of the step tables")
      ->check(CLI::IsMember(Blocks::values()))
      ->default_str(std::to_string(kDefaultAnalyzeBlock))
      ->excludes(cli.option("--sweep"));
  cli.app()
      .add_option_function<int>(
          "--tree-block", [&plan](int words) { plan.tree_block = words; },
          "--analyze --format json: the words (threads) of the small block whose addition trees are drawn (not a "
          "launch size)")
      ->check(CLI::IsMember({4, 8, 16, 32, 64}))
      ->default_str(std::to_string(kDefaultTreeBlock))
      ->needs(cli.option("--analyze"));
}

void validate(Plan& plan, const CommonOptions& options) {
  if (plan.tree_block && options.format != Format::json)
    throw UsageError("--tree-block: only --analyze --format json draws the trees");
}

std::string analysis(const Plan& plan, const CommonOptions& options) {
  const auto block = static_cast<unsigned>(plan.block.value_or(kDefaultAnalyzeBlock));
  return options.format == Format::json
             ? analysis_json(info(plan), block, static_cast<unsigned>(plan.tree_block.value_or(kDefaultTreeBlock)))
             : analysis_report(block);
}

}  // namespace

double host_bytes(const Plan& plan, std::uint64_t n) {
  // int32: the draw and its copy as uint32 (float32: the draw alone); the sum is one value.
  return (plan.type == ElementType::float32 ? 4.0 : 8.0) * static_cast<double>(n);
}

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = info;
  spec.add_options = add_options;
  spec.stages = [](const Plan&) { return describe(reduce_stages<std::uint32_t>()); };
  spec.validate = validate;
  spec.require_host_memory = [](const Plan& plan, const CommonOptions& options) {
    require_host_bytes(host_bytes(plan, options.n), n_as_given(options));
  };
  spec.analyze = {
      "Replay kernels 1-3's index maps on the CPU and exit: a table, or with --format json the document "
      "tools/plot draws the trees and lanes-to-banks diagrams from",
      {"--format"},
      {Format::table, Format::json},
      analysis};
  spec.run = [](Session& session, const Plan& plan) {
    return plan.type == ElementType::float32 ? run<float>(session, plan) : run<std::uint32_t>(session, plan);
  };
  spec.problems = {{"sum int32", {"--type", "int32"}}, {"sum float32", {"--type", "float32"}}};
  return spec;
}

}  // namespace stepwise::reduction
