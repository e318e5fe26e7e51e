// Stage 2, a warp per segment: the 32 lanes of a warp add one segment together.
//
// Changed from stage 1: a segment is no longer one thread's serial loop. Its 32 lanes read 32
// consecutive items at a time (one or two cache lines per load instead of up to 32), and add
// their partial sums with five shuffles. A long segment now takes length / 32 steps instead of
// length. The price is the other end: a segment shorter than 32 items leaves lanes idle, and an
// empty or one-item segment costs a whole warp's trip and its five shuffles: with a mean length
// of 4, seven lanes in eight do nothing (--analyze). The kernel is segreduce.cuh's
// group_per_segment with 32 lanes, which stage 5 launches with fewer.
#include "host/check.hpp"
#include "host/launch.hpp"
#include "segreduce.cuh"

namespace stepwise::segmented {
namespace {

template <class T>
void launch(const SegReduceArgs<T>& args, Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  group_per_segment<32>
      <<<resident_grid(shape), shape.threads, 0, stream>>>(args.values, args.offsets, args.out, args.segments);
  STEPWISE_CHECK_LAUNCH();
}

WorkPlan plan(const SegmentStats&, const LaunchShape&) { return {WorkUnit::group, 32, 0}; }

}  // namespace

template <class T>
SegReduceStage<T> segreduce_warp() {
  SegReduceStage<T> stage;
  stage.name = "warp-per-segment";
  stage.lesson = "32 lanes per segment, coalesced loads and a shuffle reduce: short segments idle lanes";
  stage.shape = {256, 0, 8};
  stage.sweep = shape_grid({128, 256, 512}, {}, {4, 8, 16});
  stage.launch = launch<T>;
  stage.traits.plan = plan;
  return stage;
}

SEGREDUCE_STAGE_ROWS(segreduce_warp);

}  // namespace stepwise::segmented
