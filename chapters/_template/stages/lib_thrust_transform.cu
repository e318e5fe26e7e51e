// The library row: thrust::transform with the same operation, on the same buffers, through
// the same timing and checks.
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

#include "check.hpp"
#include "square.hpp"

namespace stepwise::square {
namespace {

struct SquareWrapping {
  __device__ std::int32_t operator()(std::int32_t value) const {
    const std::uint32_t bits = static_cast<std::uint32_t>(value);
    return static_cast<std::int32_t>(bits * bits);
  }
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
  return stage;
}

}  // namespace stepwise::square
