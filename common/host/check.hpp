/// @file check.hpp
/// Checking every CUDA call and every kernel launch.
///
/// A failed call throws stepwise::CudaError whose message names the call, the
/// file and the line; chapter mains turn it into a one-line message and exit code 1.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace stepwise {

/// A CUDA runtime call (or a kernel launch) failed.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  /// The runtime's error code.
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

/// Throws CudaError if @p code is not cudaSuccess. Use through STEPWISE_CUDA_CHECK.
void throw_on_cuda_error(cudaError_t code, const char* call, const char* file, int line);

}  // namespace stepwise

/// Checks a CUDA runtime call: `STEPWISE_CUDA_CHECK(cudaMalloc(&p, bytes));`
#define STEPWISE_CUDA_CHECK(call) ::stepwise::throw_on_cuda_error((call), #call, __FILE__, __LINE__)

/// Checks the launch that precedes it (bad configuration, missing kernel image).
/// Errors inside the kernel surface at the next synchronizing call, which is checked too.
#define STEPWISE_CHECK_LAUNCH() \
  ::stepwise::throw_on_cuda_error(cudaPeekAtLastError(), "kernel launch", __FILE__, __LINE__)
