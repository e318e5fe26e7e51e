// Stage 3, reference redirection: thread t works on element IND[t].
//
// Changed from stage 2: before the work, each element's path is computed and the (path, index)
// pairs are sorted by path (a stable radix sort over the path's few bits: one pass of
// cub::DeviceRadixSort, used here because the lesson is the remap, not the sort); thread t then
// works on element IND[t], wherever it lies. Consecutive threads now hold elements of one path,
// so a warp runs one path's cost instead of its longest lane's. Nothing is moved: the work reads
// and writes each element at its own place, through the index, which costs scattered accesses
// (a 4-byte element alone in its 32-byte sector) and the sort's passes. All of it is in the
// time: the remap pays for itself or the row shows that it does not.
#include "divergence.cuh"

namespace stepwise::divergence {
namespace {

template <class W>
void launch(const DivergeArgs<W>& args, RemapScratch& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  for (unsigned step = 0; step < args.steps; ++step) redirected_step(args, workspace, step, shape.threads, stream);
}

}  // namespace

template <class W>
DivergeStage<W> redirect() {
  DivergeStage<W> stage;
  stage.name = "redirect";
  stage.lesson = "sort (path, index) pairs by path, thread t works on element IND[t]: warps of one path";
  stage.shape = {256, 0, 0};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<W>;
  stage.number = 3;  // the same in both workloads' tables
  stage.traits.arrangement = Arrangement::by_path;
  return stage;
}

DIVERGENCE_STAGE_ROWS(redirect);

}  // namespace stepwise::divergence
