// Stage 2, grid-stride loop.
//
// Changed from stage 1: a fixed grid of blocks_per_sm x SMs blocks walks the array, each
// thread copying every (grid x threads)-th element. Block start-up is paid once per thread
// instead of once per element, and the loop is correct for any n with any grid. Each
// thread still has one 4-byte load outstanding at a time, so it starves the memory system
// nearly as stage 1 does; the sweep picks the grid that comes closest (README).
#include "bandwidth.hpp"
#include "host/check.hpp"
#include "copy.cuh"
#include "host/launch.hpp"

namespace stepwise::bandwidth {
namespace {

__global__ void copy_grid_stride(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = in[i];
}

void launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  const unsigned grid = resident_grid(shape);
  if (n == 0) return;
  copy_grid_stride<<<grid, shape.threads, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

CopyStage grid_stride() {
  CopyStage stage;
  stage.name = "grid-stride";
  stage.lesson = "a fixed grid loops: block start-up paid once, any n with any grid";
  stage.shape = {1024, 0, 32};
  stage.sweep = shape_grid(kSweepThreads, {}, kSweepBlocksPerSm);
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::bandwidth
