// The library row: thrust::transform with the same operation, on the same buffers, through
// the same timing and checks.
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

#include "host/check.hpp"
#include "square.hpp"

namespace stepwise::square {
namespace {

struct SquareWrapping {
  __device__ std::int32_t operator()(std::int32_t value) const { return square_wrapping(value); }
};

void launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape&, cudaStream_t stream) {
  thrust::transform(thrust::cuda::par_nosync.on(stream), in, in + n, out, SquareWrapping{});
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

SquareStage library_transform() {
  SquareStage stage;
  stage.name = "thrust::transform";
  stage.lesson = "the library on the same data";
  stage.kind = RowKind::library;
  stage.launch = launch;
  stage.traits.elements_per_load = 0;
  return stage;
}

}  // namespace stepwise::square
