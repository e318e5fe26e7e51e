/// @file merge_sort_partitions.cuh
/// The partition kernel of one merge-sort pass (algorithm/merge_sort.hpp): the pass's version of
/// kernels/merge_path_partitions.cuh, for all the pass's pairs of runs at once. One thread (or
/// one warp: BoundarySearch) per tile boundary runs merge_sort_partition(), a Merge Path search
/// in global memory inside the pair of runs that holds the boundary; tile t then merges the ranges that
/// merge_sort_tile_range() reads from boundaries t and t + 1.
///
/// Launched before every merge pass of chapter 09's merge sorts; a stage may launch it as a
/// programmatic dependent launch (device/grid_dependency.cuh), which the kernel is ready for.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "algorithm/merge_sort.hpp"
#include "device/grid_dependency.cuh"
#include "device/warp_merge_path.cuh"
#include "host/check.hpp"
#include "host/dependent_launch.hpp"
#include "host/launch.hpp"
#include "kernels/merge_path_partitions.cuh"

namespace stepwise {

/// How the partition kernel searches each tile boundary's diagonal.
enum class BoundarySearch {
  thread,  ///< one thread per boundary, merge_path's binary search: log2(L) steps on a diagonal of L places
  warp,    ///< one warp per boundary, warp_merge_path's 32 probes a step: about log32(L) steps
};

/// The partition kernel: partitions[p] = merge_sort_partition(keys, n, width, spacing, p) for
/// p < @p count, one thread per boundary. Launched as a dependent launch, it waits for the kernel
/// before it (the last pass, which wrote @p keys and read @p partitions) and at once lets the
/// pass's merge kernel start: one block per 128 tiles, it leaves most SM slots to the merge's
/// waiting blocks.
template <class It, class Comp>
__global__ void merge_sort_partitions(It keys, std::int64_t n, std::int64_t width, std::int64_t spacing,
                                      std::int64_t count, std::int64_t* partitions, Comp comp) {
  const std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= count) return;
  wait_for_prior_grid();
  allow_next_grid();
  partitions[p] = merge_sort_partition(keys, n, width, spacing, p, comp);
}

/// The same boundaries, one warp per boundary (BoundarySearch::warp): the warp's lanes probe 32
/// places of the diagonal a step, so a pass's search waits for about a quarter as many round
/// trips to memory (log32 against log2 of the run length). Lane 0 writes the boundary.
template <class It, class Comp>
__global__ void merge_sort_partitions_by_warp(It keys, std::int64_t n, std::int64_t width, std::int64_t spacing,
                                              std::int64_t count, std::int64_t* partitions, Comp comp) {
  const std::int64_t p = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (p >= count) return;  // the same for the whole warp
  wait_for_prior_grid();
  allow_next_grid();
  const std::int64_t boundary =
      merge_sort_partition_with(keys, n, width, spacing, p,
                                [comp](It a, std::int64_t a_count, It b, std::int64_t b_count, std::int64_t diagonal) {
                                  return warp_merge_path(a, a_count, b, b_count, diagonal, comp);
                                });
  if (threadIdx.x % 32 == 0) partitions[p] = boundary;
}

/// Enqueues the partition kernel of the pass that merges runs of @p width of the @p n keys at
/// @p keys, cut into tiles of @p spacing outputs: writes merge_partition_count(n, spacing)
/// boundaries to @p partitions, each found as @p search says. With @p dependent, as a
/// programmatic dependent launch.
template <class It, class Comp>
void launch_merge_sort_partitions(It keys, std::int64_t n, std::int64_t width, std::int64_t spacing,
                                  std::int64_t* partitions, Comp comp, cudaStream_t stream, bool dependent = false,
                                  BoundarySearch search = BoundarySearch::thread) {
  constexpr int kThreads = 128;
  const std::size_t count = merge_partition_count(static_cast<std::size_t>(n), static_cast<std::size_t>(spacing));
  if (search == BoundarySearch::warp)
    launch_dependent(dependent, merge_sort_partitions_by_warp<It, Comp>, grid_of(ceil_div(count, kThreads / 32)),
                     kThreads, 0, stream, keys, n, width, spacing, static_cast<std::int64_t>(count), partitions, comp);
  else
    launch_dependent(dependent, merge_sort_partitions<It, Comp>, grid_of(ceil_div(count, kThreads)), kThreads, 0,
                     stream, keys, n, width, spacing, static_cast<std::int64_t>(count), partitions, comp);
}

}  // namespace stepwise
