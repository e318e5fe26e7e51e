// Stage 12, single pass: the last block to finish sums the block partials.
//
// Changed from stage 11: one launch instead of two. Each block writes its partial, then
// thread 0 makes it visible device-wide (__threadfence) and takes a ticket from an atomic
// counter; the block that draws the last ticket knows every partial is written, sums them
// in a fixed order (so float results do not depend on which block was last) and resets the
// counter to 0 for the next run. This saves the second launch and its dependency gap, a
// few microseconds: small for a large array, a large share of a small one (README).
#include <stdexcept>

#include "device/block.cuh"
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <int VT, class T>
__global__ void reduce12_single_pass(const T* __restrict__ in, T* __restrict__ out, std::size_t n,
                                     T* __restrict__ partials, unsigned int* __restrict__ counter) {
  __shared__ T warp_totals[32];
  __shared__ bool is_last_block;
  const T block_total = block_reduce(thread_sum_vectorized<VT>(in, n), warp_totals, Plus<T>{});
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_total;
    __threadfence();  // the partial is visible to every block before the ticket is taken
    const unsigned int ticket = atomicAdd(counter, 1u);
    is_last_block = ticket == gridDim.x - 1;
  }
  __syncthreads();  // also separates the two uses of warp_totals
  if (!is_last_block) return;
  __threadfence();  // order the reads of the partials after the ticket
  T sum = 0;
  for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x) sum += __ldcg(partials + b);  // from L2, not L1
  sum = block_reduce(sum, warp_totals, Plus<T>{});
  if (threadIdx.x == 0) {
    out[0] = sum;
    *counter = 0;  // ready for the next launch (kernel boundaries order it)
  }
}

template <class T>
void launch(const T* in, T* out, std::size_t n, ReduceWorkspace<T>& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  require_resident_threads(shape);
  require_aligned(in, 16);
  workspace.require_capacity(n);
  if (n == 0) return write_identity(out, stream);
  const unsigned grid = resident_grid_for(n, 4 * kVectorsInFlight * shape.threads, shape);
  if (grid > workspace.partials(0).size()) throw std::logic_error("reduction workspace too small for the partials");
  reduce12_single_pass<kVectorsInFlight, T>
      <<<grid, shape.threads, 0, stream>>>(in, out, n, workspace.partials(0).data(), workspace.counter());
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class T>
ReduceStage<T> single_pass() {
  ReduceStage<T> stage;
  stage.name = "single-pass";
  stage.lesson = "one launch: the last block to finish sums the partials (atomic ticket)";
  stage.shape = {1024, 0, 2};
  stage.sweep = resident_sweep();
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_STAGE_ROWS(single_pass);

}  // namespace stepwise::reduction
