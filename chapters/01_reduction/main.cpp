// Chapter 01: parallel reduction. Harris's seven kernels (and stage 2, kernel 1 without its
// `%`), then warp shuffles, vector loads, the block size and a single pass, against
// cub::DeviceReduce::Sum. The stages are in reduction.cpp's table, one file each under
// stages/; the data and its check in reduce_reference.hpp; the chapter's options in
// options.hpp; --analyze in reduce_analysis.hpp.
#include <cstdint>
#include <iostream>
#include <string>
#include <type_traits>
#include <vector>

#include "host/device_buffer.hpp"
#include "host/harness.hpp"
#include "host/host_memory.hpp"
#include "host/mode_options.hpp"
#include "options.hpp"
#include "reduce_reference.hpp"
#include "reduction.hpp"

namespace {

using namespace stepwise;
using namespace stepwise::reduction;

const ChapterInfo kChapter = {"01",
                              "reduction",
                              "parallel reduction: Harris's kernels 1-7, shuffles, vector loads, one pass, vs CUB",
                              std::uint64_t{1} << 26,
                              1,
                              "serial sum on the host (uint32 wrapping for int32, double for float32)"};

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

  const T* in() const { return in_.data(); }
  T* out() { return out_.data(); }
  ReduceWorkspace<T>& workspace() { return workspace_; }

 private:
  std::vector<T> input_;
  DeviceBuffer<T> in_;
  DeviceBuffer<T> out_;
  ReduceWorkspace<T> workspace_;
  double tolerance_;
  Reference<T> reference_{};
};

/// Runs the table; stages 1 to 10 with @p block threads per block unless it is 0 (no --block).
template <class T>
int run(Session& session, int block) {
  const std::size_t n = session.options().n;
  session.require_device_bytes(1.05 * static_cast<double>(n) * sizeof(T) + 16.0 * (1 << 20));
  ReduceProblem<T> problem(n, session.options().seed, session.device().sm_count);
  std::vector<ReduceStage<T>> stages = reduce_stages<T>();
  for (ReduceStage<T>& stage : stages)
    if (block != 0 && stage.kind == RowKind::kernel && stage.number <= kLastBlockOptionStage)
      stage.shape = with_block(stage.shape, block);
  return session.run(stages, problem, [&](ReduceLaunch<T> launch, const LaunchShape& shape, cudaStream_t stream) {
    launch(problem.in(), problem.out(), n, problem.workspace(), shape, stream);
  });
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argv[0], [&] {
    ChapterCli cli(kChapter, describe(reduce_stages<std::uint32_t>()));
    ChapterOptions options;
    add_chapter_options(cli, options);
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    if (options.analyze) {
      std::cout << analysis(cli, options);
      return static_cast<int>(kExitOk);
    }
    require_host_bytes(host_bytes(options, cli.options().n), n_as_given(cli));  // before the GPU opens: not 77
    Session session(cli);
    const int block = block_override(cli, options);
    return options.type == "float32" ? run<float>(session, block) : run<std::uint32_t>(session, block);
  });
}
