// Exercise 01-4, solved: the solution is the chapter's stage 9 itself (stages/09_warp_shuffle.cu),
// whose kernel reduce9_warp_shuffle keeps stage 8's loop and sums the block with block_reduce
// (common/device/block.cuh): warp_reduce's five __shfl_down_sync steps (common/device/warp.cuh),
// lane 0 of each warp posting its sum, one __syncthreads, and warp 0 summing the posts. Read both.
#include "build_4_warp_shuffle.hpp"

namespace stepwise::reduction::exercises {

template <class T>
ReduceStage<T> exercise_01_4_stage() {
  return warp_shuffle<T>();
}

REDUCTION_STAGE_ROWS(exercise_01_4_stage);

}  // namespace stepwise::reduction::exercises
