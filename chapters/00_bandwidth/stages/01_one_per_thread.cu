// Stage 1, one element per thread: the first kernel everyone writes.
//
// Each thread copies one int32: one 4-byte load, one 4-byte store, and a whole block's
// start-up (index arithmetic, the bounds check) for every 4 x threads bytes. The grid is
// as large as the array, n / threads blocks. Each thread has one 4-byte load in flight at a
// time, far fewer bytes than the memory system needs to stay busy (Little's law, README):
// the stages after this one are about keeping more bytes in flight with fewer instructions.
#include "bandwidth.hpp"
#include "host/check.hpp"
#include "host/launch.hpp"

namespace stepwise::bandwidth {
namespace {

__global__ void copy_one_per_thread(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out,
                                    std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

void launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  if (n == 0) return;
  copy_one_per_thread<<<grid_of(ceil_div(n, shape.threads)), shape.threads, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

CopyStage one_per_thread() {
  CopyStage stage;
  stage.name = "one-per-thread";
  stage.lesson = "one element per thread, one block per 'threads' elements";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512, 1024});
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::bandwidth
