/// @file grid_dependency.cuh
/// The device half of programmatic dependent launch (compute capability 9.0 and later): a
/// kernel launched with launch_dependent() (host/dependent_launch.hpp) may start while the
/// kernel before it in the stream still runs, so its launch and its blocks' start overlap that
/// kernel's last blocks instead of following them.
///
/// The kernel pays for that with one rule: wait_for_prior_grid() before its first access to
/// memory the kernel before it writes or reads, which returns once that kernel has completed
/// and its writes are visible (so a chain of such kernels stays in order, each waiting on the
/// one before). The kernel before decides when its successor may start: allow_next_grid() in
/// every block (after its last loads, as CUB does, so the successor's waiting blocks do not
/// take SM slots the loads need), or its blocks' exits. Both calls do nothing in a kernel
/// launched the ordinary way, or compiled for an older GPU.
#pragma once

#include <cuda_runtime.h>

namespace stepwise {

/// Waits until the kernel before this one in the stream has completed and its memory writes are
/// visible; returns at once if this kernel was not launched by launch_dependent().
__device__ __forceinline__ void wait_for_prior_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
}

/// Lets the next kernel in the stream, if launch_dependent() launched it, start once every block
/// of this kernel has called this or exited. Says nothing about this kernel's writes.
__device__ __forceinline__ void allow_next_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

}  // namespace stepwise
