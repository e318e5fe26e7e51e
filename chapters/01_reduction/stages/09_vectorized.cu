// Stage 9, vectorized loads with several in flight.
//
// Changed from stage 8: each load instruction fetches 16 bytes (LDG.128) instead of 4, a
// quarter of the load instructions and index computations per byte, and each thread has
// kVectorsInFlight of them outstanding at once (thread_sum_vectorized, reduction.cuh). The
// grid still fills the GPU once; a second launch of the same kernel with one block sums the
// partials. The shape, 1024-thread blocks and 2048 threads per SM, is what --sweep found
// fastest (README).
#include "block.cuh"
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <int VT, class T>
__global__ void reduce9_vectorized(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
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
  reduce_in_two_passes<T>(reduce9_vectorized<kVectorsInFlight, T>, 4 * kVectorsInFlight * shape.threads, in, out, n,
                          workspace, shape, stream);
}

}  // namespace

template <class T>
ReduceStage<T> vectorized() {
  ReduceStage<T> stage;
  stage.name = "vectorized";
  stage.lesson = "16-byte loads, four in flight per thread, 1024-thread blocks: a quarter of the loads";
  stage.shape = {1024, 0, 2};
  stage.sweep = resident_sweep();
  stage.launch = launch<T>;
  return stage;
}

template ReduceStage<std::uint32_t> vectorized<std::uint32_t>();
template ReduceStage<float> vectorized<float>();

}  // namespace stepwise::reduction
