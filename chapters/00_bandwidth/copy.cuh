/// @file copy.cuh
/// Device pieces several copy stages share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stepwise::bandwidth {

/// Threads per block the stages' sweeps try.
inline const std::vector<int> kSweepThreads = {128, 256, 512, 1024};
/// Blocks per SM the grid-sized stages' sweeps try.
inline const std::vector<int> kSweepBlocksPerSm = {1, 2, 4, 8, 16, 32, 64, 128};

/// Copies elements [from, n) with the whole grid, one per thread: the tail that the vector
/// stages leave when n is not a multiple of their width (at most 3 elements).
__device__ __forceinline__ void copy_tail(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out,
                                          std::size_t from, std::size_t n) {
  const std::size_t i = from + static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

}  // namespace stepwise::bandwidth
