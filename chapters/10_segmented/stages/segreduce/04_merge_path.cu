// Stage 4, load-balanced: Merge Path over the segment ends and the items, VT steps per thread
// whatever the segment lengths.
//
// Changed from stage 3: the unit of work is no longer a segment. Stages 1 to 3 each suit one
// shape of segments and fail another; here every thread gets exactly VT steps of one merge, the
// merge of the segment end offsets with the item indices 0 .. n - 1 (never stored), as chapter
// 04's merge-based SpMV does with its row ends and nonzeros: SpMV is a segmented reduce of the
// products a_ij x_j, each row a segment. A step that takes an item adds it; a step that takes an
// end writes the running sum and starts again, so an empty segment costs one step and a
// segment of a million items is shared by many threads. The partition kernel finds each
// thread's start with one Merge Path search (common/algorithm/merge_path.hpp,
// common/kernels/merge_path_partitions.cuh), and a thread's unfinished segment becomes a carry,
// added by a small fix-up kernel with one atomic per run of carries. The price is fixed: n +
// segments steps instead of n, the partition searches, and loads strided by VT between lanes.
#include "host/dispatch.hpp"
#include "segreduce.cuh"

namespace stepwise::segmented {
namespace {

using Threads = IntList<128, 256>;
using Steps = IntList<kMinMergeSteps, 5, 7, 11>;

template <class T>
void launch(const SegReduceArgs<T>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  dispatch_tile(shape, Threads{}, Steps{}, [&](auto nt, auto vt) {
    launch_merge_path_reduce<decltype(nt)::value, decltype(vt)::value>(args, workspace, stream);
  });
}

WorkPlan plan(const SegmentStats&, const LaunchShape& shape) { return {WorkUnit::merge, 1, shape.items}; }

}  // namespace

template <class T>
SegReduceStage<T> segreduce_merge_path() {
  SegReduceStage<T> stage;
  stage.name = "merge-path";
  stage.lesson = "Merge Path over segment ends and items: VT steps per thread whatever the lengths";
  stage.shape = {128, 7};
  stage.sweep = shape_grid(Threads::values(), Steps::values());
  stage.launch = launch<T>;
  stage.traits.plan = plan;
  return stage;
}

SEGREDUCE_STAGE_ROWS(segreduce_merge_path);

}  // namespace stepwise::segmented
