// Stage 7, completely unrolled (Harris's kernel 6).
//
// Changed from stage 6: the block size is a template parameter, so the tree is
// straight-line code (tree_reduce_unrolled, reduction.cuh): no loop counter, no loop
// branch, and the steps a smaller block does not have removed at compile time. The
// launcher picks one of five instantiations, one per block size of Blocks, at run time.
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <unsigned BLOCK, class T>
__global__ void reduce7_complete_unroll(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T sdata[BLOCK];
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (BLOCK * 2) + threadIdx.x;
  T first = i < n ? in[i] : T(0);
  if (i + BLOCK < n) first += in[i + BLOCK];
  sdata[tid] = first;
  __syncthreads();
  tree_reduce_unrolled<BLOCK>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

template <class T>
void launch(const T* in, T* out, std::size_t n, ReduceWorkspace<T>& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  require_block(shape);
  workspace.require_capacity(n);
  if (n == 0) return write_identity(out, stream);
  dispatch(shape.threads, Blocks{}, "threads per block", [&](auto block) {
    constexpr unsigned kBlock = decltype(block)::value;
    reduce_in_passes<T>(reduce7_complete_unroll<kBlock, T>, 2 * kBlock, 0, in, out, n, workspace, kBlock, stream);
  });
}

}  // namespace

template <class T>
ReduceStage<T> complete_unroll() {
  ReduceStage<T> stage;
  stage.name = "complete-unroll";
  stage.lesson = "block size as a template parameter: the whole tree unrolled at compile time";
  stage.shape = {256};
  stage.sweep = block_sweep();
  stage.options = {"--block"};  // its threads per block
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_STAGE_ROWS(complete_unroll);

}  // namespace stepwise::reduction
