// Stage 11, 1024-thread blocks: the launch shape, and nothing else.
//
// Changed from stage 10: the shape. The kernel and the launcher are stage 10's
// (stages/10_vectorized.cu), run at 1024 threads per block and 2 blocks per SM instead of
// 256 and 8: the same 2048 threads on every SM, a quarter of the blocks. Each block pays
// its start, its block_reduce (one barrier) and its partial once, so a quarter of those,
// and the second pass sums a quarter of the partials (264 instead of 1,056 on 132 SMs).
// 1024 x 2 is the shape --sweep finds fastest for this kernel; --block leaves it alone. The
// README's tables show what the step is worth, at 2^22 and at 2^28.
#include "reduction.hpp"

namespace stepwise::reduction {

template <class T>
ReduceStage<T> large_blocks() {
  ReduceStage<T> stage = vectorized<T>();  // stage 10's kernel and launcher, unchanged
  stage.name = "large-blocks";
  stage.lesson = "stage 10's kernel at 1024 threads x 2 blocks per SM: a quarter of the blocks and partials";
  stage.shape = {1024, 0, 2};
  stage.sweep = resident_sweep();
  stage.options = {};  // its tuned shape: --block leaves it
  return stage;
}

REDUCTION_STAGE_ROWS(large_blocks);

}  // namespace stepwise::reduction
