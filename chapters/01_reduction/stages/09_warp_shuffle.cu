// Stage 9, warp-shuffle reduction.
//
// Changed from stage 8: the in-block tree. Instead of the shared-memory tree (at 256
// threads: three __syncthreads, after the store and after each of two steps, then six steps
// in warp 0 with two __syncwarp each), warps sum in registers with __shfl_down_sync (one
// instruction per step, no shared-memory traffic, no bank conflicts), then one barrier,
// then warp 0 sums the warps' totals (block_reduce, common/device/block.cuh). The block size is no
// longer needed at compile time. Once each thread sums hundreds of elements (about 993 at
// 2^28 on 132 SMs) the tree is not the bottleneck any more: the lesson is in the code, and
// the README shows that the time does not move.
#include "device/block.cuh"
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <class T>
__global__ void reduce9_warp_shuffle(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T warp_totals[32];
  const std::size_t grid_size = static_cast<std::size_t>(blockDim.x) * 2 * gridDim.x;
  T sum = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * (blockDim.x * 2) + threadIdx.x; i < n; i += grid_size) {
    sum += in[i];
    if (i + blockDim.x < n) sum += in[i + blockDim.x];
  }
  sum = block_reduce(sum, warp_totals, Plus<T>{});
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
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
ReduceStage<T> warp_shuffle() {
  ReduceStage<T> stage;
  stage.name = "warp-shuffle";
  stage.lesson = "__shfl_down_sync inside warps: registers only, one barrier per block";
  stage.shape = {256, 0, 8};
  stage.sweep = resident_sweep();
  stage.options = {"--block"};  // its threads per block
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_STAGE_ROWS(warp_shuffle);

}  // namespace stepwise::reduction
