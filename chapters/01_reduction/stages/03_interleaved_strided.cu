// Stage 3, interleaved addressing with a strided index (Harris's kernel 2).
//
// Changed from stage 2 (which already tests with a mask, no `%`): thread tid works on index
// 2*s*tid, so the adding threads are the first blockDim.x / (2s): whole warps add or idle,
// no divergence while at least 32 threads work, and a warp with nothing to add sends no
// load or store to shared memory (the add is predicated: every warp still steps through the
// loop and its barrier). New problem: lane after lane the words are 2s apart, so 2s lanes
// of a warp hit the same shared-memory bank (2-way conflicts at s = 1, 4-way at s = 2, ...)
// and the access is replayed. The README shows both, from --analyze and from Nsight
// Compute.
#include "addressing.hpp"
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <class T>
__global__ void reduce3_interleaved_strided(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  T* sdata = dynamic_shared<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    // The slide's index = 2*s*tid: the threads with index < blockDim.x add sdata[index + s] into sdata[index].
    const ThreadWork w = thread_work(Addressing::interleaved_strided, tid, s, blockDim.x);
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
  reduce_in_passes<T>(reduce3_interleaved_strided<T>, shape.threads, shape.threads * sizeof(T), in, out, n, workspace,
                      shape.threads, stream);
}

}  // namespace

template <class T>
ReduceStage<T> interleaved_strided() {
  ReduceStage<T> stage;
  stage.name = "interleaved-strided";
  stage.lesson = "index = 2*s*tid: whole warps idle or busy, but shared-memory bank conflicts";
  stage.shape = {256};
  stage.sweep = block_sweep();
  stage.options = {"--block"};                                   // its threads per block
  stage.traits.replayed_tree = Addressing::interleaved_strided;  // --analyze replays its tree
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_STAGE_ROWS(interleaved_strided);

}  // namespace stepwise::reduction
