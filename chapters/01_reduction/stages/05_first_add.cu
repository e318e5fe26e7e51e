// Stage 5, first add during the global load (Harris's kernel 4).
//
// Changed from stage 4: each block covers 2 x blockDim.x elements and every thread adds two
// of them on the way into shared memory: half the blocks, and no thread idle at the first
// add. The tree and its barriers are paid once per 2 x blockDim.x elements instead of once
// per blockDim.x elements; the README's tables show what that is worth.
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <class T>
__global__ void reduce5_first_add(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  T* sdata = dynamic_shared<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (blockDim.x * 2) + threadIdx.x;
  T first = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) first += in[i + blockDim.x];
  sdata[tid] = first;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

template <class T>
void launch(const T* in, T* out, std::size_t n, ReduceWorkspace<T>& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  require_block(shape);
  workspace.require_capacity(n);
  if (n == 0) return write_identity(out, stream);
  reduce_in_passes<T>(reduce5_first_add<T>, 2 * shape.threads, shape.threads * sizeof(T), in, out, n, workspace,
                      shape.threads, stream);
}

}  // namespace

template <class T>
ReduceStage<T> first_add() {
  ReduceStage<T> stage;
  stage.name = "first-add";
  stage.lesson = "add two elements during the global load: half the blocks, no idle first step";
  stage.shape = {256};
  stage.sweep = block_sweep();
  stage.options = {"--block"};  // its threads per block
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_STAGE_ROWS(first_add);

}  // namespace stepwise::reduction
