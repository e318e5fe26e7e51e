// Stage 5, partial (LAM-like): move only the elements that break a warp's uniformity.
//
// Changed from stage 4: the paper's LAM scheme (label, assign, move) cuts the data a
// transformation moves. Here, simplified: each warp of 32 consecutive elements is labelled
// uniform (all one path) or divergent; uniform warps work in place, untouched; only the elements
// of divergent warps are selected (cub::DeviceSelect::Flagged), sorted by path, moved, worked on
// and moved back. On sorted input nothing moves and the stage costs one classifying pass more
// than stage 2; on random input every warp is divergent and it moves what stage 4 moves. The
// count of selected elements is read back to the host, because it sizes the sort: a
// synchronization per step, whose cost is in the time.
#include "divergence.cuh"

namespace stepwise::divergence {
namespace {

template <class W>
void launch(const DivergeArgs<W>& args, RemapScratch& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  for (unsigned step = 0; step < args.steps; ++step) partial_step(args, workspace, step, shape.threads, stream);
}

}  // namespace

template <class W>
DivergeStage<W> partial() {
  DivergeStage<W> stage;
  stage.name = "partial";
  stage.lesson = "uniform warps stay in place; only divergent warps' elements are sorted, moved and moved back";
  stage.shape = {256, 0, 0};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<W>;
  stage.number = 5;  // the same in both workloads' tables
  stage.traits.arrangement = Arrangement::partial;
  stage.traits.host_work = HostWork::reads_count;
  stage.synchronizes = true;  // reads a count back to the host
  return stage;
}

DIVERGENCE_STAGE_ROWS(partial);

}  // namespace stepwise::divergence
