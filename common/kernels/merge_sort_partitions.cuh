/// @file merge_sort_partitions.cuh
/// The partition kernel of one merge-sort pass (algorithm/merge_sort.hpp): the pass's version of
/// kernels/merge_path_partitions.cuh, for all the pass's pairs of runs at once. One thread per
/// tile boundary runs merge_sort_partition(), a Merge Path search in global memory inside the
/// pair of runs that holds the boundary; tile t then merges the ranges that
/// merge_sort_tile_range() reads from boundaries t and t + 1.
///
/// Launched before every merge pass of chapter 09's merge sorts.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "algorithm/merge_sort.hpp"
#include "host/check.hpp"
#include "host/launch.hpp"
#include "kernels/merge_path_partitions.cuh"

namespace stepwise {

/// The partition kernel: partitions[p] = merge_sort_partition(keys, n, width, spacing, p) for
/// p < @p count, one thread per boundary.
template <class It, class Comp>
__global__ void merge_sort_partitions(It keys, std::int64_t n, std::int64_t width, std::int64_t spacing,
                                      std::int64_t count, std::int64_t* partitions, Comp comp) {
  const std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= count) return;
  partitions[p] = merge_sort_partition(keys, n, width, spacing, p, comp);
}

/// Enqueues the partition kernel of the pass that merges runs of @p width of the @p n keys at
/// @p keys, cut into tiles of @p spacing outputs: writes merge_partition_count(n, spacing)
/// boundaries to @p partitions.
template <class It, class Comp>
void launch_merge_sort_partitions(It keys, std::int64_t n, std::int64_t width, std::int64_t spacing,
                                  std::int64_t* partitions, Comp comp, cudaStream_t stream) {
  constexpr int kThreads = 128;
  const std::size_t count = merge_partition_count(static_cast<std::size_t>(n), static_cast<std::size_t>(spacing));
  merge_sort_partitions<<<grid_of(ceil_div(count, kThreads)), kThreads, 0, stream>>>(
      keys, n, width, spacing, static_cast<std::int64_t>(count), partitions, comp);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace stepwise
