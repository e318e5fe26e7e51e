// Stage 2, branch-light: the best kernel that moves nothing, the fair baseline of every remap.
//
// Changed from stage 1: the K branches become one loop. A path's mixer differs from another's
// only in its constants, so each thread looks its path's constants up and runs the one loop
// for its own trip count. A mixed warp no longer runs each path's code in turn: it runs one
// loop as long as its longest lane, and the lanes whose path is shorter idle at the end. On the
// synthetic workload that turns the sum of the warp's paths' rounds into their maximum. What is
// left is trip-count divergence, which no rewriting of the kernel removes: only giving a warp
// elements of the same cost does, which is what stages 3-7 do. The mutation step is already a
// single loop with a per-thread trip count (mutate: rounds[1], age: rounds[0]); its two
// branches become that loop here too, and the two stages measure alike there.
//
// A remap has to beat the best kernel that moves nothing, not the naive one: every remap's
// speedup in the chapter is quoted against this stage.
#include "divergence.cuh"

namespace stepwise::divergence {
namespace {

template <class W>
void launch(const DivergeArgs<W>& args, RemapScratch&, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  own_steps<W, false>(args, shape.threads, stream);
}

}  // namespace

template <class W>
DivergeStage<W> branch_light() {
  DivergeStage<W> stage;
  stage.name = "branch-light";
  stage.lesson = "the paths as one loop with per-thread constants and trip count: a warp pays its longest lane";
  stage.shape = {256, 0, 0};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<W>;
  stage.number = 2;  // the same in both workloads' tables
  stage.traits.arrangement = Arrangement::own_loop;
  return stage;
}

DIVERGENCE_STAGE_ROWS(branch_light);

}  // namespace stepwise::divergence
