// The library row: cudaMemcpyAsync device to device, the driver's own copy, on the same
// buffers through the same timing and checks as the stages.
#include "bandwidth.hpp"
#include "host/check.hpp"

namespace stepwise::bandwidth {
namespace {

void launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape&, cudaStream_t stream) {
  STEPWISE_CUDA_CHECK(cudaMemcpyAsync(out, in, n * sizeof(std::int32_t), cudaMemcpyDeviceToDevice, stream));
}

}  // namespace

CopyStage library_memcpy() {
  CopyStage stage;
  stage.name = "cudaMemcpy";
  stage.lesson = "cudaMemcpyAsync device to device: the driver's copy";
  stage.kind = RowKind::library;
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::bandwidth
