// Stage 2, kernel 1 without the `%`: a controlled experiment, not one of Harris's kernels.
//
// Changed from stage 1: only the test that picks the adding threads. `tid % (2*s) == 0`
// divides by a value known only at run time, and the compiler emits an integer division for
// it: 17 instructions on sm_90, among them a reciprocal on the special-function unit (the
// README shows the SASS). Since 2s is a power of two, the same threads are the ones whose
// low bits are zero: `(tid & (2*s - 1)) == 0`, an add and one LOP3, and the tree loop drops
// from 28 instructions per step to 12. Same threads, same words, same divergence, same
// barriers (addressing.hpp, and a CPU test checks the two maps agree for every thread and
// step): the step from stage 1 is what `%` cost. Harris's kernel 2 changes the addressing
// itself and comes next, as stage 3, so the slides' single step from kernel 1 to kernel 2
// is measured here in two.
#include "addressing.hpp"
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <class T>
__global__ void reduce2_interleaved_divergent_mask(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  T* sdata = dynamic_shared<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    // Stage 1's threads, found with a mask: (tid & (2*s - 1)) == 0 adds sdata[tid + s] into sdata[tid].
    const ThreadWork w = thread_work(Addressing::interleaved_divergent_mask, tid, s, blockDim.x);
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
  reduce_in_passes<T>(reduce2_interleaved_divergent_mask<T>, shape.threads, shape.threads * sizeof(T), in, out, n,
                      workspace, shape.threads, stream);
}

}  // namespace

template <class T>
ReduceStage<T> interleaved_divergent_mask() {
  ReduceStage<T> stage;
  stage.name = "interleaved-divergent-mask";
  stage.lesson = "stage 1 with `(tid & (2*s - 1)) == 0` for `%`: same divergence, no division";
  stage.shape = {256};
  stage.sweep = block_sweep();
  stage.options = {"--block"};                                          // its threads per block
  stage.traits.replayed_tree = Addressing::interleaved_divergent_mask;  // --analyze replays its tree
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_STAGE_ROWS(interleaved_divergent_mask);

}  // namespace stepwise::reduction
