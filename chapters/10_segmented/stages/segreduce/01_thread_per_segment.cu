// Stage 1, a thread per segment: thread s adds the items of segment s.
//
// The plainest parallel segmented reduce, and the baseline of the chapter: it is right for every
// distribution and suits only the shortest segments. The 32 threads of a warp walk 32
// neighbouring segments in lock-step, so the warp runs as long as its longest segment while the
// lanes of shorter ones idle (--analyze counts the idle lanes), and a long segment is added by
// one thread, one item after another. Its loads are scattered too: lane k reads segment k's
// items, far from lane k + 1's, so a warp's load touches up to 32 cache lines for 32 values.
#include "host/check.hpp"
#include "host/launch.hpp"
#include "segreduce.cuh"

namespace stepwise::segmented {
namespace {

template <class T>
__global__ void thread_per_segment(const T* __restrict__ values, const std::uint64_t* __restrict__ offsets,
                                   T* __restrict__ out, std::uint64_t segments) {
  const std::uint64_t segment = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (segment >= segments) return;
  Accum<T> sum = 0;
  for (std::uint64_t i = offsets[segment]; i < offsets[segment + 1]; ++i) sum += load_accum(values, i);
  out[segment] = to_value<T>(sum);
}

template <class T>
void launch(const SegReduceArgs<T>& args, Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  thread_per_segment<<<grid_of(ceil_div(args.segments, shape.threads)), shape.threads, 0, stream>>>(
      args.values, args.offsets, args.out, args.segments);
  STEPWISE_CHECK_LAUNCH();
}

WorkPlan plan(const SegmentStats&, const LaunchShape&) { return {WorkUnit::thread, 1, 0}; }

}  // namespace

template <class T>
SegReduceStage<T> segreduce_thread() {
  SegReduceStage<T> stage;
  stage.name = "thread-per-segment";
  stage.lesson = "thread s adds segment s: a warp waits for its longest segment";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<T>;
  stage.traits.plan = plan;
  return stage;
}

SEGREDUCE_STAGE_ROWS(segreduce_thread);

}  // namespace stepwise::segmented
