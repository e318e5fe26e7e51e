// A chapter that exists to test the harness: stages that pass, fail their check, write past
// their output, fail to launch, or synchronize while they are timed (without saying so, or
// declared). Its tests check that each failure is reported on its row, with exit code 1, that
// later stages still run, and that a declared synchronizing stage is timed.
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "host/check.hpp"
#include "host/data.hpp"
#include "host/device_buffer.hpp"
#include "host/harness.hpp"
#include "host/launch.hpp"

namespace {

using namespace stepwise;

using Launch = void (*)(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape,
                        cudaStream_t stream);

/// out[i] = in[i] for i < n; then, if @p stray is nonzero, also out[n + stray - 1] = in[0].
__global__ void copy(const std::int32_t* in, std::int32_t* out, std::size_t n, std::size_t stray) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
  if (i == 0 && stray != 0) out[n + stray - 1] = in[0];
}

/// out[i] = in[i] except the last element, which gets in[last] + 1.
__global__ void copy_wrong_last(const std::int32_t* in, std::int32_t* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i + 1 == n ? static_cast<std::int32_t>(static_cast<std::uint32_t>(in[i]) + 1u) : in[i];
}

void launch_copy(const std::int32_t* in, std::int32_t* out, std::size_t n, std::size_t stray, int threads,
                 cudaStream_t stream) {
  copy<<<grid_of(ceil_div(n, threads)), threads, 0, stream>>>(in, out, n, stray);
  STEPWISE_CHECK_LAUNCH();
}

void correct(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  launch_copy(in, out, n, 0, shape.threads, stream);
}

void wrong(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape&, cudaStream_t stream) {
  copy_wrong_last<<<grid_of(ceil_div(n, 256)), 256, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

void past_end(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape&, cudaStream_t stream) {
  launch_copy(in, out, n, 1, 256, stream);
}

void bad_launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape&, cudaStream_t stream) {
  launch_copy(in, out, n, 0, 2048, stream);  // more threads per block than any GPU allows
}

void synchronizes(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape&, cudaStream_t stream) {
  launch_copy(in, out, n, 0, 256, stream);
  STEPWISE_CUDA_CHECK(cudaStreamSynchronize(stream));  // a stage must never do this, unless it says so
}

void library(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape&, cudaStream_t stream) {
  STEPWISE_CUDA_CHECK(cudaMemcpyAsync(out, in, n * sizeof(std::int32_t), cudaMemcpyDeviceToDevice, stream));
}

Stage<Launch> row(const char* name, Launch launch, RowKind kind = RowKind::kernel) {
  Stage<Launch> stage;
  stage.name = name;
  stage.lesson = "a stage for the harness's tests";
  stage.kind = kind;
  stage.launch = launch;
  if (launch == correct) {
    stage.shape = {256};
    stage.sweep = shape_grid({64, 128, 256});
  }
  return stage;
}

/// A stage that synchronizes mid-run and says so (Stage::synchronizes): timed without holding
/// the stream.
Stage<Launch> declared_synchronizing() {
  Stage<Launch> stage = row("declared-sync", synchronizes);
  stage.synchronizes = true;
  return stage;
}

const std::vector<Stage<Launch>>& stages() {
  static const std::vector<Stage<Launch>> table = numbered<Stage<Launch>>({
      row("correct", correct),
      row("wrong", wrong),
      row("past-end", past_end),
      row("bad-launch", bad_launch),
      row("synchronizes", synchronizes),
      row("later", correct),
      declared_synchronizing(),
      row("memcpy", library, RowKind::library),
  });
  return table;
}

class CopyProblem final : public Problem {
 public:
  CopyProblem(std::size_t n, std::uint64_t seed)
      : input_(
            random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max())),
        in_(input_),
        out_(n) {}
  std::string element_type() const override { return "int32"; }
  double bytes_moved() const override { return 2.0 * sizeof(std::int32_t) * input_.size(); }
  void poison_output() override { poison(out_); }
  Check check_output() override { return compare_exact(out_.download(), input_); }
  void run_cpu_reference() override { copy_ = input_; }
  void launch(const Stage<Launch>& stage, const LaunchShape& shape, cudaStream_t stream) {
    stage.launch(in_.data(), out_.data(), input_.size(), shape, stream);
  }

 private:
  std::vector<std::int32_t> input_;
  std::vector<std::int32_t> copy_;
  DeviceBuffer<std::int32_t> in_;
  DeviceBuffer<std::int32_t> out_;
};

const ChapterInfo kChapter = {"99", "harness", "stages that fail on purpose", 100003, 1, "a copy on the host"};

}  // namespace

int main(int argc, char** argv) {
  return run_main(argv[0], [&] {
    ChapterCli cli(kChapter, describe(stages()));
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    Session session(cli);
    CopyProblem problem(cli.options().n, cli.options().seed);
    return session.run(stages(), problem);
  });
}
