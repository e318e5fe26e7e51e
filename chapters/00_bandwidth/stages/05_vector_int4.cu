// Stage 5, int4 vectors.
//
// Changed from stage 4: 16 bytes per instruction (LDG.128 / STG.128), the widest access a
// thread can issue: a quarter of stage 2's memory instructions, and 16 bytes in flight per
// outstanding load, which is what Little's law asks of 2048 threads per SM (README).
#include "bandwidth.hpp"
#include "host/check.hpp"
#include "copy.cuh"
#include "host/launch.hpp"

namespace stepwise::bandwidth {
namespace {

__global__ void copy_vector4(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out, std::size_t n) {
  const std::size_t quads = n / 4;
  const int4* in4 = reinterpret_cast<const int4*>(in);
  int4* out4 = reinterpret_cast<int4*>(out);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < quads; i += stride)
    out4[i] = in4[i];
  copy_tail(in, out, quads * 4, n);
}

void launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  require_aligned(in, 16);
  require_aligned(out, 16);
  const unsigned grid = resident_grid(shape);
  if (n == 0) return;
  copy_vector4<<<grid, shape.threads, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

CopyStage vector_int4() {
  CopyStage stage;
  stage.name = "vector-int4";
  stage.lesson = "16-byte loads and stores: a quarter of the instructions";
  stage.shape = {1024, 0, 32};
  stage.sweep = shape_grid(kSweepThreads, {}, kSweepBlocksPerSm);
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::bandwidth
