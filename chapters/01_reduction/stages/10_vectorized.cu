// Stage 10, vectorized loads with several in flight.
//
// Changed from stage 9: the loads, and only the loads. Each load instruction fetches 16
// bytes (LDG.128) instead of 4: a quarter of the load instructions and index computations
// per byte, and each thread has kVectorsInFlight of them outstanding at once
// (thread_sum_vectorized, reduction.cuh), four times the bytes in flight per instruction.
// The shape is stage 9's (256 threads, 8 blocks per SM: 2048 threads on every SM, --block
// sets it as for stages 1 to 9); the grid still fills the GPU once, and a second launch of
// the same kernel with one block sums the partials. Stage 11 runs this very kernel at
// another shape.
#include "device/block.cuh"
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <int VT, class T>
__global__ void reduce10_vectorized(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T warp_totals[32];
  const T sum = block_reduce(thread_sum_vectorized<VT>(in, n), warp_totals, Plus<T>{});
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

template <class T>
void launch(const T* in, T* out, std::size_t n, ReduceWorkspace<T>& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  require_resident_threads(shape);
  require_aligned(in, 16);
  workspace.require_capacity(n);
  if (n == 0) return write_identity(out, stream);
  reduce_in_two_passes<T>(reduce10_vectorized<kVectorsInFlight, T>, 4 * kVectorsInFlight * shape.threads, in, out, n,
                          workspace, shape, stream);
}

}  // namespace

template <class T>
ReduceStage<T> vectorized() {
  ReduceStage<T> stage;
  stage.name = "vectorized";
  stage.lesson = "16-byte loads, four in flight per thread, at stage 9's shape: a quarter of the load instructions";
  stage.shape = {256, 0, 8};
  // No sweep: the shape is stage 9's by definition. Stage 11 runs this kernel at the shape
  // its sweep finds fastest.
  stage.options = {"--block"};  // its threads per block
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_STAGE_ROWS(vectorized);

}  // namespace stepwise::reduction
