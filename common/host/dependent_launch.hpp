/// @file dependent_launch.hpp
/// The host half of programmatic dependent launch (device/grid_dependency.cuh has the kernel's
/// half): a launch that lets the kernel start while the kernel before it in the stream still
/// runs. Where the GPU cannot (before compute capability 9.0) the attribute changes nothing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "host/check.hpp"

namespace stepwise {

/// Launches @p kernel on @p grid blocks of @p threads with @p shared bytes of dynamic shared
/// memory in @p stream: with @p dependent as a programmatic dependent launch (the kernel must
/// call wait_for_prior_grid() before touching what the kernel before it touches), else as
/// `kernel<<<grid, threads, shared, stream>>>(args...)`. Checked.
template <class... Params, class... Args>
void launch_dependent(bool dependent, void (*kernel)(Params...), unsigned grid, int threads, std::size_t shared,
                      cudaStream_t stream, Args... args) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.dynamicSmemBytes = shared;
  config.stream = stream;
  config.attrs = dependent ? &attribute : nullptr;
  config.numAttrs = dependent ? 1 : 0;
  STEPWISE_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, args...));
}

}  // namespace stepwise
