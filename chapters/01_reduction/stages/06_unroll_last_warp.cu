// Stage 6, unroll the last warp (Harris's kernel 5).
//
// Changed from stage 5: the loop stops at s = 64; the last six steps run in warp 0 through
// warp_reduce_shared (reduction.cuh), with no __syncthreads and no `if (tid < s)` test per
// step. The other warps are done after the loop and leave the SM's issue slots to the last
// one. The slides' version of those six steps relied on a warp's lanes running in lockstep,
// which Volta and later GPUs no longer promise: reduction.cuh says why, and how __syncwarp
// makes it safe.
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <class T>
__global__ void reduce6_unroll_last_warp(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  T* sdata = dynamic_shared<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (blockDim.x * 2) + threadIdx.x;
  T first = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) first += in[i + blockDim.x];
  sdata[tid] = first;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warp_reduce_shared(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

template <class T>
void launch(const T* in, T* out, std::size_t n, ReduceWorkspace<T>& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  require_block(shape);
  workspace.require_capacity(n);
  if (n == 0) return write_identity(out, stream);
  reduce_in_passes<T>(reduce6_unroll_last_warp<T>, 2 * shape.threads, shape.threads * sizeof(T), in, out, n, workspace,
                      shape.threads, stream);
}

}  // namespace

template <class T>
ReduceStage<T> unroll_last_warp() {
  ReduceStage<T> stage;
  stage.name = "unroll-last-warp";
  stage.lesson = "last six steps in one warp with __syncwarp: no __syncthreads, no loop";
  stage.shape = {256};
  stage.sweep = block_sweep();
  stage.options = {"--block"};  // its threads per block
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_STAGE_ROWS(unroll_last_warp);

}  // namespace stepwise::reduction
