// Stage 8, multiple elements per thread (Harris's kernel 7, algorithm cascading).
//
// Changed from stage 7: a grid sized to fill the GPU once (blocks_per_sm blocks on every
// SM) walks the whole array; each thread adds pairs of elements in registers, a grid apart,
// before the tree. The tree (and its barriers) runs once per block instead of once per 2 x
// BLOCK elements, and a second launch with one block sums the block partials (1,056 of them
// at 256 x 8 on 132 SMs). The tree's cost disappears into the memory stream: the README's
// big step.
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <unsigned BLOCK, class T>
__global__ void reduce8_multiple_per_thread(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T sdata[BLOCK];
  const unsigned tid = threadIdx.x;
  const std::size_t grid_size = static_cast<std::size_t>(BLOCK) * 2 * gridDim.x;
  T sum = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * (BLOCK * 2) + tid; i < n; i += grid_size) {
    sum += in[i];
    if (i + BLOCK < n) sum += in[i + BLOCK];
  }
  sdata[tid] = sum;
  __syncthreads();
  tree_reduce_unrolled<BLOCK>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

template <class T>
void launch(const T* in, T* out, std::size_t n, ReduceWorkspace<T>& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  require_resident_threads(shape);
  workspace.require_capacity(n);
  if (n == 0) return write_identity(out, stream);
  dispatch(shape.threads, Blocks{}, "threads per block", [&](auto block) {
    constexpr unsigned kBlock = decltype(block)::value;
    reduce_in_two_passes<T>(reduce8_multiple_per_thread<kBlock, T>, 2 * kBlock, in, out, n, workspace, shape, stream);
  });
}

}  // namespace

template <class T>
ReduceStage<T> multiple_per_thread() {
  ReduceStage<T> stage;
  stage.name = "multiple-per-thread";
  stage.lesson = "a GPU-sized grid; each thread sums many elements before the tree";
  stage.shape = {256, 0, 8};
  stage.sweep = resident_sweep();
  stage.options = {"--block"};  // its threads per block
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_STAGE_ROWS(multiple_per_thread);

}  // namespace stepwise::reduction
