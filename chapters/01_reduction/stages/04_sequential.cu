// Stage 4, sequential addressing (Harris's kernel 3).
//
// Changed from stage 3: the stride starts at blockDim.x / 2 and halves, and thread tid adds
// sdata[tid + s]. A warp reads 32 consecutive words, one per bank: conflict free, and the
// adding threads are still the first s. Left: half the threads idle from the first step
// on, and a __syncthreads per step even when only one warp is working (stages 5 and 6).
#include "addressing.hpp"
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <class T>
__global__ void reduce4_sequential(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  T* sdata = dynamic_shared<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    // The slide's test: the threads with tid < s add sdata[tid + s] into sdata[tid].
    const ThreadWork w = thread_work(Addressing::sequential, tid, s, blockDim.x);
    if (w.active) sdata[w.left] += sdata[w.right];
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
  reduce_in_passes<T>(reduce4_sequential<T>, shape.threads, shape.threads * sizeof(T), in, out, n, workspace,
                      shape.threads, stream);
}

}  // namespace

template <class T>
ReduceStage<T> sequential() {
  ReduceStage<T> stage;
  stage.name = "sequential";
  stage.lesson = "sequential addressing sdata[tid + s]: conflict free; half the threads idle from step 1";
  stage.shape = {256};
  stage.sweep = block_sweep();
  stage.options = {"--block"};                          // its threads per block
  stage.traits.replayed_tree = Addressing::sequential;  // --analyze replays its tree
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_STAGE_ROWS(sequential);

}  // namespace stepwise::reduction
