// Stage 4, int2 vectors.
//
// Changed from stage 2: each thread moves 8 bytes per load instruction instead of 4, over
// the same grid-stride loop: half the memory instructions and half the loop iterations for
// the same bytes, and twice the bytes in flight per outstanding load.
#include "bandwidth.hpp"
#include "host/check.hpp"
#include "copy.cuh"
#include "host/launch.hpp"

namespace stepwise::bandwidth {
namespace {

__global__ void copy_vector2(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out, std::size_t n) {
  const std::size_t pairs = n / 2;
  const int2* in2 = reinterpret_cast<const int2*>(in);
  int2* out2 = reinterpret_cast<int2*>(out);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < pairs; i += stride)
    out2[i] = in2[i];
  copy_tail(in, out, pairs * 2, n);
}

void launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  require_aligned(in, 8);
  require_aligned(out, 8);
  const unsigned grid = resident_grid(shape);
  if (n == 0) return;
  copy_vector2<<<grid, shape.threads, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

CopyStage vector_int2() {
  CopyStage stage;
  stage.name = "vector-int2";
  stage.lesson = "8-byte loads and stores: half the memory instructions";
  stage.shape = {256, 0, 8};
  stage.sweep = shape_grid(kSweepThreads, {}, kSweepBlocksPerSm);
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::bandwidth
