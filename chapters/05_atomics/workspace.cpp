#include <cuda_runtime.h>

#include "atomics.hpp"
#include "host/check.hpp"

namespace stepwise::atomics {

std::size_t max_shared_bytes_per_block() {
  int device = 0;
  STEPWISE_CUDA_CHECK(cudaGetDevice(&device));
  int bytes = 0;
  STEPWISE_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return static_cast<std::size_t>(bytes);
}

}  // namespace stepwise::atomics
