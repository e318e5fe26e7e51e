#include "host/check.hpp"

namespace stepwise {

void throw_on_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  if (code == cudaSuccess) return;
  // Clear a non-sticky error so that it is not reported again by the next check.
  (void)cudaGetLastError();
  throw CudaError(code, std::string(call) + " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) +
                            ") at " + file + ":" + std::to_string(line));
}

}  // namespace stepwise
