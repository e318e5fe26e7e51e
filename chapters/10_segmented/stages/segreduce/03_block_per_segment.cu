// Stage 3, a block per segment: all the threads of a block add one segment together.
//
// Changed from stage 2: a segment of a million items is added by 256 threads instead of 32, and
// the warps' partial sums meet through shared memory (block_reduce: one barrier). For a few long
// segments this is the natural decomposition, as in chapter 01's reduction with one block per
// array. For short ones it idles the most lanes of the chapter: a segment of 3 items occupies a block of
// 256 threads, its barrier and its shared-memory round trip (--analyze: the idle lanes). Blocks
// walk the segments by the grid's size, so the grid stays resident whatever the count. The
// kernel is segreduce.cuh's block_per_segment, which stage 5 launches for long segments.
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "segreduce.cuh"

namespace stepwise::segmented {
namespace {

using Threads = IntList<128, 256, 512>;

template <class T>
void launch(const SegReduceArgs<T>& args, Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  dispatch(shape.threads, Threads{}, "threads per block", [&](auto threads) {
    constexpr int kNT = decltype(threads)::value;
    block_per_segment<kNT>
        <<<resident_grid(shape), kNT, 0, stream>>>(args.values, args.offsets, args.out, args.segments);
    STEPWISE_CHECK_LAUNCH();
  });
}

WorkPlan plan(const SegmentStats&, const LaunchShape& shape) { return {WorkUnit::block, shape.threads, 0}; }

}  // namespace

template <class T>
SegReduceStage<T> segreduce_block() {
  SegReduceStage<T> stage;
  stage.name = "block-per-segment";
  stage.lesson = "a block per segment, one barrier: long segments fly, short ones waste a block";
  stage.shape = {256, 0, 8};
  stage.sweep = shape_grid(Threads::values(), {}, {4, 8});
  stage.launch = launch<T>;
  stage.traits.plan = plan;
  return stage;
}

SEGREDUCE_STAGE_ROWS(segreduce_block);

}  // namespace stepwise::segmented
