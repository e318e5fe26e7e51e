// Stage 1, interleaved addressing with divergent branching (Harris's kernel 1).
//
// Each block loads blockDim.x elements into shared memory, then halves the number of
// partial sums per step: at step s, thread tid adds sdata[tid + s] into sdata[tid] if tid
// is a multiple of 2s. The adding threads are scattered over every warp, so every warp
// diverges (half its lanes idle at s = 1, 31 of 32 at s = 16) and sends every step's loads
// and store to shared memory, and `%` by a run-time divisor compiles to an integer
// division: 17 of the tree loop's 28 instructions per step on sm_90 (stage 2 measures what
// they cost alone). Passes of the same kernel over the block partials follow until one
// block remains. The index map is addressing.hpp's, which --analyze replays on the CPU; the
// README shows its step table, its trees and the Nsight Compute counters.
#include "addressing.hpp"
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <class T>
__global__ void reduce1_interleaved_divergent(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  T* sdata = dynamic_shared<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    // The slide's test: the threads with tid % (2*s) == 0 add sdata[tid + s] into sdata[tid].
    const ThreadWork w = thread_work(Addressing::interleaved_divergent, tid, s, blockDim.x);
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
  reduce_in_passes<T>(reduce1_interleaved_divergent<T>, shape.threads, shape.threads * sizeof(T), in, out, n, workspace,
                      shape.threads, stream);
}

}  // namespace

template <class T>
ReduceStage<T> interleaved_divergent() {
  ReduceStage<T> stage;
  stage.name = "interleaved-divergent";
  stage.lesson = "interleaved addressing, `tid % (2*s) == 0`: every warp diverges";
  stage.shape = {256};
  stage.sweep = block_sweep();
  stage.options = {"--block"};                                     // its threads per block
  stage.traits.replayed_tree = Addressing::interleaved_divergent;  // --analyze replays its tree
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_STAGE_ROWS(interleaved_divergent);

}  // namespace stepwise::reduction
