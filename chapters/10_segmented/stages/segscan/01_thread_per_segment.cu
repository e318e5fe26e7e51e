// Stage 1, a thread per segment: thread s scans the items of segment s in order.
//
// The plainest segmented scan, and the baseline of the problem: the serial scan of each segment
// is obviously right, and every thread reads and writes only its own segment. It inherits all of
// segmented reduce's stage 1 costs (a warp waits for its longest segment; lane k's loads and
// stores are far from lane k + 1's) and adds one: every item is now written too, with the same
// scattered pattern. It needs no flags: the offsets say where each segment starts.
#include "host/check.hpp"
#include "host/launch.hpp"
#include "segreduce.cuh"
#include "segscan.hpp"

namespace stepwise::segmented {
namespace {

template <class T>
__global__ void scan_thread_per_segment(const T* __restrict__ values, const std::uint64_t* __restrict__ offsets,
                                        T* __restrict__ out, std::uint64_t segments) {
  const std::uint64_t segment = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (segment >= segments) return;
  Accum<T> sum = 0;
  for (std::uint64_t i = offsets[segment]; i < offsets[segment + 1]; ++i) {
    sum += load_accum(values, i);
    out[i] = to_value<T>(sum);
  }
}

template <class T>
void launch(const SegScanArgs<T>& args, Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  scan_thread_per_segment<<<grid_of(ceil_div(args.segments, shape.threads)), shape.threads, 0, stream>>>(
      args.values, args.offsets, args.out, args.segments);
  STEPWISE_CHECK_LAUNCH();
}

WorkPlan plan(const SegmentStats&, const LaunchShape&) { return {WorkUnit::thread, 1, 0}; }

}  // namespace

template <class T>
SegScanStage<T> segscan_thread() {
  SegScanStage<T> stage;
  stage.name = "thread-per-segment";
  stage.lesson = "thread s scans segment s: a warp waits for its longest segment";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<T>;
  stage.traits.plan = plan;
  return stage;
}

SEGSCAN_STAGE_ROWS(segscan_thread);

}  // namespace stepwise::segmented
