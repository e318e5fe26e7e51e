/// @file allreduce.cuh
/// Device pieces the stages share: the element-wise kernels that add or copy one range of a
/// buffer (the peer's, read over NVLink or PCIe, or the gathered ones), their grid, the ring
/// stages' all-reduce of a team of one GPU, and the dispatch from the run-time element type to the
/// compiled kernels.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "allreduce.hpp"
#include "host/check.hpp"
#include "host/device.hpp"
#include "host/launch.hpp"

namespace stepwise::multigpu {

/// out[i] = sum_of(a[i], b[i]) for i < count: one step of a reduce-scatter (a: the neighbour's
/// partial sum, read from its memory; b: this GPU's input).
template <class T>
__global__ void add_ranges(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ out, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    out[i] = sum_of(a[i], b[i]);
}

/// out[i] = from[i] for i < count: one step of an all-gather (from: the neighbour's memory).
template <class T>
__global__ void copy_range(const T* __restrict__ from, T* __restrict__ out, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    out[i] = from[i];
}

/// out[i] = first[i] + rest[0 * n + i] + rest[1 * n + i] + ... (@p rest_count buffers of n):
/// the reduction on GPU 0 of its own input and the gathered ones, in GPU order.
template <class T>
__global__ void add_gathered(const T* __restrict__ first, const T* __restrict__ rest, int rest_count,
                             T* __restrict__ out, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    T sum = first[i];
    for (int g = 0; g < rest_count; ++g) sum = sum_of(sum, rest[static_cast<std::size_t>(g) * n + i]);
    out[i] = sum;
  }
}

/// The grid of an element-wise kernel over @p count elements on the current device: one thread
/// per element up to @p shape.blocks_per_sm blocks per SM, then a grid-stride loop.
inline unsigned elementwise_grid(std::size_t count, const LaunchShape& shape) {
  const std::size_t wanted = (count + static_cast<std::size_t>(shape.threads) - 1) / shape.threads;
  const std::size_t resident = static_cast<std::size_t>(current_sm_count()) * shape.blocks_per_sm;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(wanted, resident)));
}

/// Calls @p body with a value of the C++ type of @p type (`float{}` or `std::int32_t{}`).
template <class Body>
void by_element(Element type, Body&& body) {
  switch (type) {
    case Element::float32:
      body(float{});
      return;
    case Element::int32:
      body(std::int32_t{});
      return;
  }
  throw std::logic_error("by_element: unknown element type");
}

/// Element @p offset of the buffer @p base of T.
template <class T>
T* at(void* base, std::size_t offset) {
  return static_cast<T*>(base) + offset;
}
/// Element @p offset of the read-only buffer @p base of T.
template <class T>
const T* at(const void* base, std::size_t offset) {
  return static_cast<const T*>(base) + offset;
}

/// The all-reduce of a team of one GPU: its input is the sum, copied to its output on its stream.
template <class T>
void copy_own_input(const AllReduceOperands& ops) {
  ScopedDevice device(0);
  STEPWISE_CUDA_CHECK(
      cudaMemcpyAsync(ops.out[0], ops.in[0], ops.n * sizeof(T), cudaMemcpyDeviceToDevice, ops.team->stream(0)));
}

}  // namespace stepwise::multigpu
