// Stage 4, load-balanced: Merge Path over the segment ends and the items, VT steps per thread
// whatever the segment lengths, in tiles staged through shared memory.
//
// Changed from stage 3: the unit of work is no longer a segment. Stages 1 to 3 each suit one
// shape of segments and fail another; here every thread gets exactly VT steps of one merge, the
// merge of the segment end offsets with the item indices 0 .. n - 1 (never stored), as chapter
// 04's merge-based SpMV does with its row ends and nonzeros: SpMV is a segmented reduce of the
// products a_ij x_j, each row a segment. A step that takes an item adds it; a step that takes an
// end writes the running sum and starts again, so an empty segment costs one step and a
// segment of a million items is shared by many threads.
//
// The merge is cut in two levels, as chapter 03's merges are (MergeReduceTile, segreduce.cuh):
// the partition kernel finds each tile's start with one Merge Path search per NT x VT steps
// (common/kernels/merge_path_partitions.cuh); the block loads the tile's items (16-byte
// vectors) and end offsets with coalesced loads into shared memory, and each thread searches
// its own diagonal there and walks its VT steps from shared memory. A thread's unfinished
// segment is added inside the tile (a reduce by segment across the warp, then one shared
// atomic per segment and warp), the sums leave in coalesced stores, and only the segment open
// at the tile's end becomes a carry, added by a small fix-up kernel with one atomic per run of
// carries. The price is fixed: n + segments steps instead of n, and a search per tile and per
// thread.
//
// Variant rows (--variants; `4 - change` is this stage with that one change undone):
//   - `4 - shared-memory tile`: each thread reads its items and ends straight from global memory, VT apart between the
//     lanes (a warp-wide load of 4-byte items spans VT lines, each used for VT items over VT steps), and every thread
//     writes a partition and a carry and reads them back (about 48 bytes per VT items: for int32 at VT = 7, more than
//     the 28 bytes of items it adds);
//   - `4 - 16-byte loads`: the tile, loading its items one element a load (still coalesced).
#include "host/dispatch.hpp"
#include "segreduce.cuh"

namespace stepwise::segmented {
namespace {

using Threads = IntList<128, 256>;
using Steps = IntList<kMinMergeSteps, 5, 7, 9>;

template <class T, MergeLoads loads = MergeLoads::vectors>
void launch(const SegReduceArgs<T>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  dispatch_tile(shape, Threads{}, Steps{}, [&](auto nt, auto vt) {
    launch_merge_path_reduce<decltype(nt)::value, decltype(vt)::value, T, loads>(args, workspace, stream);
  });
}

WorkPlan plan(const SegmentStats&, const LaunchShape& shape) { return {WorkUnit::merge, 1, shape.items}; }

}  // namespace

template <class T>
SegReduceStage<T> segreduce_merge_path() {
  SegReduceStage<T> stage;
  stage.name = "merge-path";
  stage.lesson = "Merge Path over segment ends and items: tiles loaded coalesced into shared memory, VT steps a thread";
  stage.shape = {128, 7};
  stage.sweep = shape_grid(Threads::values(), Steps::values());
  stage.launch = launch<T>;
  stage.traits.plan = plan;
  // Each change undone alone.
  stage.variants = {
      variant_of(stage, "shared-memory tile",
                 "each thread reads its VT items and ends from global memory, a partition and a carry per thread",
                 launch<T, MergeLoads::by_thread>),
      variant_of(stage, "16-byte loads", "the tile's items loaded one element a load (coalesced)",
                 launch<T, MergeLoads::elements>),
  };
  return stage;
}

SEGREDUCE_STAGE_ROWS(segreduce_merge_path);

}  // namespace stepwise::segmented
