// Stage 1, one element per thread.
//
// The lesson of a stage goes here: what changed from the previous stage, why it should be
// faster, and where the README shows the evidence. This first stage is the plain kernel:
// thread i squares element i.
#include "host/check.hpp"
#include "host/launch.hpp"
#include "square.hpp"

namespace stepwise::square {
namespace {

__global__ void square_one_per_thread(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out,
                                      std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = square_wrapping(in[i]);
}

void launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  if (n == 0) return;
  square_one_per_thread<<<grid_of(ceil_div(n, shape.threads)), shape.threads, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

SquareStage one_per_thread() {
  SquareStage stage;
  stage.name = "one-per-thread";
  stage.lesson = "thread i squares element i";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512, 1024});
  stage.launch = launch;
  stage.traits.elements_per_load = 1;  // an int32 per load
  stage.traits.grid_stride = false;    // the grid is sized to n: one thread per element
  return stage;
}

}  // namespace stepwise::square
