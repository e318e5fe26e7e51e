// Stage 1, divergent: the straightforward kernel. Each thread takes its own element and runs
// the branch its path names.
//
// The lesson: a warp issues one instruction for all its 32 lanes. When its lanes' paths differ,
// the warp runs each path's code in turn with the other lanes masked off, so a warp holding all
// K paths pays the sum of their costs, whatever the share of each. Nothing here is wrong; it is
// what the paper's benchmarks look like before any remap, and its time on sorted input (every
// warp uniform) is what a perfect remap could reach.
//
// Napkin math (synthetic, 2^24 elements, rounds 64/128/256/512): a round is four integer
// instructions; an H100 issues about 132 SMs x 4 schedulers x 1.755 GHz warp instructions per
// second, half of them for the multiply, so ~116 G warp-rounds/s. A warp holding all four
// paths runs 960 rounds: 2^19 warps x 960 / 116 G = 4.3 ms; sorted, the mean is 240: 1.1 ms.
#include "divergence.cuh"

namespace stepwise::divergence {
namespace {

template <class W>
void launch(const DivergeArgs<W>& args, RemapScratch&, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  own_steps<W, true>(args, shape.threads, stream);
}

}  // namespace

template <class W>
DivergeStage<W> divergent() {
  DivergeStage<W> stage;
  stage.name = "divergent";
  stage.lesson = "a thread per element, a branch per path: a mixed warp runs every path it holds in turn";
  stage.shape = {256, 0, 0};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<W>;
  stage.number = 1;  // the same in both workloads' tables
  stage.traits.arrangement = Arrangement::own_branches;
  return stage;
}

DIVERGENCE_STAGE_ROWS(divergent);

}  // namespace stepwise::divergence
