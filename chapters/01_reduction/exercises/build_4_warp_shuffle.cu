// Exercise 01-4: build stage 9, the warp-shuffle reduction, from stage 8 (README.md, "01-4").
//
// Stage 9's lesson (stages/09_warp_shuffle.cu): the in-block tree. Instead of the shared-memory
// tree (at 256 threads: three __syncthreads, after the store and after each of two steps, then six
// steps in warp 0 with two __syncwarp each), warps sum in registers with __shfl_down_sync (one
// instruction per step, no shared-memory traffic, no bank conflicts), then one barrier, then warp 0
// sums the warps' totals. The block size is no longer needed at compile time.
//
// Start from stage 8 (stages/08_multiple_per_thread.cu): keep its grid-stride loop, in which each
// thread adds pairs of elements a block apart, with blockDim.x where it has BLOCK, and replace its
// tree. Write reduce9_warp_shuffle below: the launcher and the row are written. Then delete the
// first line of exercise_01_4_stage() and grade it on a GPU with
// `ctest --test-dir build -R exercise-01-4 --output-on-failure`.
#include "build_4_warp_shuffle.hpp"
#include "host/exercise.hpp"
#include "reduction.cuh"

namespace stepwise::reduction::exercises {
namespace {

/// Sums @p n values at @p in into one partial per block at @p out[blockIdx.x], for any n >= 0
/// (0 past the end), with blocks of 64 to 1024 threads (a power of two: Blocks).
template <class T>
__global__ void reduce9_warp_shuffle(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  // TODO: stage 8's loop into a register sum; then a warp sum with __shfl_down_sync, lane 0 of each
  // warp stores it in __shared__ T warp_totals[32], one __syncthreads, and warp 0 sums those.
}

template <class T>
void launch(const T* in, T* out, std::size_t n, ReduceWorkspace<T>& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  require_resident_threads(shape);
  workspace.require_capacity(n);
  if (n == 0) return write_identity(out, stream);
  reduce_in_two_passes<T>(reduce9_warp_shuffle<T>, 2 * shape.threads, in, out, n, workspace, shape, stream);
}

}  // namespace

template <class T>
ReduceStage<T> exercise_01_4_stage() {
  // Delete the next line once reduce9_warp_shuffle is written: until then the grader stops here.
  not_done_yet("01-4", "reduce9_warp_shuffle", __FILE__);
  ReduceStage<T> stage;
  stage.name = "warp-shuffle";
  stage.lesson = "__shfl_down_sync inside warps: registers only, one barrier per block";
  stage.shape = {256, 0, 8};
  stage.sweep = resident_sweep();
  stage.options = {"--block"};  // its threads per block
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_STAGE_ROWS(exercise_01_4_stage);

}  // namespace stepwise::reduction::exercises
