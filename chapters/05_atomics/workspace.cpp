#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "atomics.hpp"
#include "host/check.hpp"

namespace stepwise::atomics {

void Workspace::require(std::size_t bytes) const {
  if (bytes > buffer_.size())
    throw std::invalid_argument("the workspace has " + std::to_string(buffer_.size()) + " bytes; this row needs " +
                                std::to_string(bytes));
}

std::size_t max_shared_bytes_per_block() {
  int device = 0;
  STEPWISE_CUDA_CHECK(cudaGetDevice(&device));
  int bytes = 0;
  STEPWISE_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return static_cast<std::size_t>(bytes);
}

}  // namespace stepwise::atomics
