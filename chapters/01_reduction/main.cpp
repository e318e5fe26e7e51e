// Chapter 01: parallel reduction. Harris's seven kernels, then warp shuffles, vector
// loads and a single pass, against cub::DeviceReduce::Sum.
//
// Stages (each row of the table):
//   1 interleaved-divergent  5 unroll-last-warp     9 vectorized
//   2 interleaved-strided    6 complete-unroll     10 single-pass
//   3 sequential             7 multiple-per-thread lib cub::DeviceReduce::Sum
//   4 first-add              8 warp-shuffle
//
// int32 data is drawn from the whole int32 range (negative values included) and summed
// as uint32, wrapping mod 2^32: exact, whatever the order of additions, with no signed
// overflow. float32 data is drawn from [-1, 2) and checked against a double sum within
// d x eps32 x sum|x_i| (see reduce_reference.hpp). n = 0 is rejected (--n must be >= 1);
// the launchers themselves return the identity, 0, for n = 0.
#include <cstdint>
#include <iostream>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "data.hpp"
#include "device_buffer.hpp"
#include "harness.hpp"
#include "reduce_analysis.hpp"
#include "reduce_reference.hpp"
#include "reduce_stages.hpp"

namespace {

using namespace stepwise;
using namespace stepwise::reduction;

const ChapterInfo kChapter = {"01",
                              "reduction",
                              "parallel reduction: Harris's kernels 1-7, shuffles, vector loads, one pass, vs CUB",
                              std::uint64_t{1} << 26,
                              1,
                              "serial sum on the host (uint32 wrapping for int32, double for float32)"};

/// The input, the one-element output, the workspace, and the reference of one sum.
/// @tparam T std::uint32_t (the int32 data, summed mod 2^32) or float.
template <class T>
class ReduceProblem final : public Problem {
 public:
  ReduceProblem(std::size_t n, std::uint64_t seed, int sm_count)
      : input_(make_input(n, seed)), in_(input_), out_(1), workspace_(n) {
    if constexpr (std::is_same_v<T, float>) {
      float_reference_ = float_sum(input_);
      tolerance_ = float_sum_tolerance(n, sm_count);
    } else {
      int_reference_ = wrapping_sum(input_);
    }
  }

  std::string element_type() const override { return std::is_same_v<T, float> ? "float32" : "int32"; }
  double bytes_moved() const override { return static_cast<double>(sizeof(T)) * (input_.size() + 1); }
  void poison_output() override { poison(out_); }
  Check check_output() override {
    const std::vector<T> got = out_.download();
    if constexpr (std::is_same_v<T, float>)
      return compare_within(got, {float_reference_.sum}, {float_reference_.abs_sum}, tolerance_);
    else
      return compare_exact(got, {int_reference_});
  }
  void run_cpu_reference() override {
    if constexpr (std::is_same_v<T, float>)
      scratch_float_ = float_sum(input_);
    else
      scratch_int_ = wrapping_sum(input_);
  }

  const T* in() const { return in_.data(); }
  T* out() { return out_.data(); }
  std::size_t n() const { return input_.size(); }
  ReduceWorkspace<T>& workspace() { return workspace_; }

 private:
  static std::vector<T> make_input(std::size_t n, std::uint64_t seed) {
    if constexpr (std::is_same_v<T, float>)
      return random_floats(n, seed, -1.0f, 2.0f);
    else
      return as_wrapping(
          random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()));
  }

  std::vector<T> input_;
  DeviceBuffer<T> in_;
  DeviceBuffer<T> out_;
  ReduceWorkspace<T> workspace_;
  FloatSum float_reference_;
  double tolerance_ = 0.0;
  std::uint32_t int_reference_ = 0;
  FloatSum scratch_float_;
  std::uint32_t scratch_int_ = 0;
};

/// @p stage as a row of the chapter, with @p config's block size unless the stage has a tuned one.
template <class T>
Stage<ReduceProblem<T>> as_stage(const ReduceStage<T>& stage, ReduceConfig config) {
  if (stage.tuned_block != 0) config.block = stage.tuned_block;
  return {stage.number, stage.name, stage.lesson, stage.number == 0 ? RowKind::library : RowKind::kernel,
          [launch = stage.launch, config](ReduceProblem<T>& p, cudaStream_t stream) {
            launch(p.in(), p.n(), p.out(), p.workspace(), config, stream);
          }};
}

template <class T>
std::vector<Stage<ReduceProblem<T>>> stages_for(const ReduceConfig& config) {
  std::vector<Stage<ReduceProblem<T>>> stages;
  for (const ReduceStage<T>& stage : reduce_stages<T>()) stages.push_back(as_stage(stage, config));
  return stages;
}

/// --sweep: every block size (and, for grid-sized stages, threads per SM) of every
/// selected stage, checked and timed; the fastest per stage.
template <class T>
int sweep(Session& session, ReduceProblem<T>& problem, const ReduceConfig& base) {
  Report report = session.new_report(problem);
  std::cout << "sweep: fastest launch shape per stage (threads per block, threads per SM)\n";
  bool all_passed = true;
  for (const ReduceStage<T>& stage : reduce_stages<T>()) {
    if (stage.number == 0 || !session.options().selects(stage.name)) continue;
    ReportRow best;
    ReduceConfig best_config = base;
    for (int block : kSupportedBlocks) {
      for (int per_sm : stage.grid_sized ? std::vector<int>{512, 1024, 2048} : std::vector<int>{base.threads_per_sm}) {
        if (per_sm < block || per_sm > base.threads_per_sm) continue;
        ReduceConfig config = base;
        config.block = block;
        config.threads_per_sm = per_sm;
        const BoundStage bound{as_stage(stage, config).info(), [&, config](cudaStream_t stream) {
                                 stage.launch(problem.in(), problem.n(), problem.out(), problem.workspace(), config,
                                              stream);
                               }};
        ReportRow row = session.measure(bound, problem);
        if (row.check != "PASS") {
          all_passed = false;
          std::cout << "  FAIL " << stage.name << " block " << block << ": " << row.check_detail << "\n";
          continue;
        }
        if (!best.time || row.time->median_ms < best.time->median_ms) {
          best = row;
          best_config = config;
        }
      }
    }
    if (!best.time) continue;
    std::cout << "  " << stage.number << " " << stage.name << ": block " << best_config.block;
    if (stage.grid_sized) std::cout << ", " << best_config.threads_per_sm << " threads/SM";
    std::cout << "\n";
    best.name += " (" + std::to_string(best_config.block) + "t" +
                 (stage.grid_sized ? " " + std::to_string(best_config.threads_per_sm) + "/SM" : "") + ")";
    report.rows.push_back(best);
  }
  derive_columns(report);
  session.publish(report);
  return all_passed ? kExitOk : kExitFailed;
}

template <class T>
int run_chapter(Session& session, const ReduceConfig& config, bool run_sweep) {
  const std::size_t n = session.options().n;
  session.require_device_bytes(1.05 * static_cast<double>(n) * sizeof(T) + 16.0 * (1 << 20));
  ReduceProblem<T> problem(n, session.options().seed, config.sm_count);
  if (run_sweep) return sweep(session, problem, config);
  const std::vector<Stage<ReduceProblem<T>>> stages = stages_for<T>(config);
  return session.run(stages, problem);
}

int analyze_addressing(int block) {
  std::cout << "shared-memory index patterns of kernels 1-3 (kernels 4-6 use kernel 3's), replayed on the CPU\n\n";
  for (Addressing scheme : {Addressing::interleaved_divergent, Addressing::interleaved_strided, Addressing::sequential})
    std::cout << render(analyze(scheme, static_cast<unsigned>(block))) << "\n";
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argv[0], [&] {
    ChapterCli cli(kChapter, describe(stages_for<std::uint32_t>(ReduceConfig{})));
    std::string type = "int32";
    int block = 256;
    bool run_analysis = false;
    bool run_sweep = false;
    cli.app()
        .add_option("--type", type, "Element type: int32 (summed mod 2^32) or float32")
        ->check(CLI::IsMember({"int32", "float32"}))
        ->capture_default_str();
    cli.app()
        .add_option("--block", block,
                    "Threads per block of stages 1-8 (9 and 10 use their tuned 1024): 64, 128, 256, 512 or 1024")
        ->check(CLI::IsMember({64, 128, 256, 512, 1024}))
        ->capture_default_str();
    cli.app().add_flag("--analyze", run_analysis,
                       "Replay kernels 1-3's shared-memory index patterns on the CPU (no GPU needed) and exit");
    cli.app().add_flag("--sweep", run_sweep, "Time every block size (and threads per SM) per stage; report the best");
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    if (run_analysis) return analyze_addressing(block);

    Session session(cli);
    const ReduceConfig config = device_config(block);
    return type == "float32" ? run_chapter<float>(session, config, run_sweep)
                             : run_chapter<std::uint32_t>(session, config, run_sweep);
  });
}
