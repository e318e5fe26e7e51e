// Stage 8, controlled: remap only where a sample says it pays.
//
// Changed from stages 2 and 3: before the work, one warp in every few (at most 2048 warps in
// all) reads its 32 elements' paths and adds up two numbers: the rounds its longest lane runs
// (what the warp costs without a remap, as in stage 2) and the mean rounds of its lanes (what its
// elements cost once grouped by path). Their difference, per warp, is the saving a remap can
// bring; stage 3's remap costs about kBreakEvenRounds rounds per warp of elements. With a
// predicted saving at least that large the stage runs stage 3 (sort by path, work through the
// index), otherwise stage 2's kernel: on uniform input it pays the sample (a few microseconds
// and one synchronization) and nothing else. Stage 3 is the remap it uses because it was the
// fastest remap at every measured share of mixed warps (stage 5, which moves less, makes more
// passes). The mutation workload's paths are drawn alike every generation, so the first
// generation's sample decides for all of them.
#include "device/thread_ops.hpp"
#include "device/warp.cuh"
#include "divergence.cuh"

namespace stepwise::divergence {
namespace {

/// Warps the sample reads at most.
constexpr std::size_t kSampledWarps = 2048;

/// The most and the sum of the lanes' @p rounds, valid in lane 0; all 32 lanes call it. One
/// instruction each on sm_80 and later (`__reduce_max_sync`, `__reduce_add_sync`); five shuffles
/// each before (common's warp_reduce).
__device__ inline void longest_and_total(unsigned rounds, unsigned& longest, unsigned& total) {
#if __CUDA_ARCH__ >= 800
  longest = __reduce_max_sync(kFullWarp, rounds);
  total = __reduce_add_sync(kFullWarp, rounds);
#else
  struct Longest {  // the larger of two round counts, as an operator for warp_reduce
    using value_type = unsigned;
    __device__ static constexpr unsigned identity() { return 0; }
    __device__ unsigned operator()(unsigned left, unsigned right) const { return left > right ? left : right; }
  };
  longest = warp_reduce(rounds, Longest{});
  total = warp_reduce(rounds, Plus<unsigned>{});
#endif
}

/// Warp w reads warp-sized chunk w x @p stride and adds its longest lane's rounds, its lanes'
/// rounds and 1 to sums[0], sums[1] and sums[2].
template <class W>
__global__ void sample_warps(W work, const typename W::Item* src, std::size_t n, unsigned step, std::size_t stride,
                             unsigned long long* sums) {
  const std::size_t chunk = global_thread() / kWarp * stride;
  if (chunk * kWarp >= n) return;
  const std::size_t i = chunk * kWarp + threadIdx.x % kWarp;
  const unsigned rounds = i < n ? entry(work.rounds, path_of(work, src, i, step)) : 0u;
  unsigned longest = 0, total = 0;
  longest_and_total(rounds, longest, total);
  if (threadIdx.x % kWarp == 0) {
    atomicAdd(&sums[0], static_cast<unsigned long long>(longest));
    atomicAdd(&sums[1], static_cast<unsigned long long>(total));
    atomicAdd(&sums[2], 1ull);
  }
}

template <class W>
void launch(const DivergeArgs<W>& args, RemapScratch& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  const std::size_t chunks = ceil_div(args.n, kWarp);
  const std::size_t stride = chunks > kSampledWarps ? chunks / kSampledWarps : 1;
  const std::size_t sampled = ceil_div(chunks, stride);
  unsigned long long* sums = workspace.counters();
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(sums, 0, 3 * sizeof *sums, stream));
  sample_warps<<<blocks_for(sampled * kWarp, shape.threads), shape.threads, 0, stream>>>(args.work, args.in, args.n, 0,
                                                                                         stride, sums);
  STEPWISE_CHECK_LAUNCH();
  unsigned long long* host = workspace.host_counters();
  STEPWISE_CUDA_CHECK(cudaMemcpyAsync(host, sums, 3 * sizeof *sums, cudaMemcpyDeviceToHost, stream));
  STEPWISE_CUDA_CHECK(cudaStreamSynchronize(stream));
  const bool remap = controlled_should_remap(static_cast<double>(host[0]), static_cast<double>(host[1]) / kWarp,
                                             static_cast<double>(host[2]));
  if (args.remapped != nullptr) *args.remapped = remap ? 1 : 0;
  if (!remap) {
    own_steps<W, false>(args, shape.threads, stream);
    return;
  }
  for (unsigned step = 0; step < args.steps; ++step) redirected_step(args, workspace, step, shape.threads, stream);
}

}  // namespace

template <class W>
DivergeStage<W> controlled() {
  DivergeStage<W> stage;
  stage.name = "controlled";
  stage.lesson = "a sample of warps predicts the saving; remap (stage 3) only when it beats the remap's cost";
  stage.shape = {256, 0, 0};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<W>;
  stage.number = 8;  // the same in both workloads' tables
  stage.traits.arrangement = Arrangement::sampled;
  stage.traits.host_work = HostWork::reads_count;
  stage.synchronizes = true;  // reads a count back to the host
  return stage;
}

DIVERGENCE_STAGE_ROWS(controlled);

}  // namespace stepwise::divergence
