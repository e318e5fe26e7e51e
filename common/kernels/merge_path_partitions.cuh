/// @file merge_path_partitions.cuh
/// The first level of Baxter's Merge Path decomposition (device/merge_tile.cuh holds the second):
/// the partition kernel, which cuts the merge of A and B into tiles of `spacing` outputs by one
/// Merge Path search in global memory per tile boundary (the diagonals 0, spacing, 2*spacing, ...,
/// and the end), and its host launcher, launch_merge_path_partitions(). Tile t then merges exactly
/// the outputs [t*spacing, (t+1)*spacing): the A and B ranges between boundaries t and t+1
/// (this_tile_range() in merge_tile.cuh reads them).
///
/// Launched before every tiled Merge Path kernel: chapter 03's merges, sorted searches and
/// load-balancing searches, chapter 04's merge-based SpMV (spmv.cuh), chapter 08's joins
/// (join.cuh and its tiled stages) and chapter 10's load-balanced segmented reduce, which takes
/// the warp-per-boundary kernel below where its tiles are few.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "algorithm/merge_path.hpp"
#include "device/grid_dependency.cuh"
#include "device/warp_merge_path.cuh"
#include "host/check.hpp"
#include "host/dependent_launch.hpp"
#include "host/device.hpp"
#include "host/launch.hpp"

namespace stepwise {

/// Tile boundaries one partition kernel writes for a merge of @p total outputs cut every
/// @p spacing: one per tile, plus the end.
constexpr std::size_t merge_partition_count(std::size_t total, std::size_t spacing) {
  return ceil_div(total, spacing) + 1;
}

/// How the partition kernel searches its diagonals: with merge_path (midpoints: every diagonal
/// probes its own keys), or with merge_path_by_bits (the same answers; neighbouring diagonals
/// probe the same A keys first and share those cache lines).
enum class PartitionSearch { midpoint, by_bits };

/// The partition kernel: partitions[p] = merge_path(a, b, min(p * spacing, a_count + b_count))
/// for p < @p count, one thread per boundary, each a search in global memory.
template <Bounds bounds, PartitionSearch search, class AIt, class BIt, class Comp>
__global__ void merge_path_partitions(AIt a, std::int64_t a_count, BIt b, std::int64_t b_count, std::int64_t spacing,
                                      std::int64_t count, std::int64_t* partitions, Comp comp) {
  const std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= count) return;
  const std::int64_t total = a_count + b_count;
  const std::int64_t diagonal = p * spacing < total ? p * spacing : total;
  partitions[p] = search == PartitionSearch::by_bits
                      ? merge_path_by_bits<bounds>(a, a_count, b, b_count, diagonal, comp)
                      : merge_path<bounds>(a, a_count, b, b_count, diagonal, comp);
}

/// Enqueues the partition kernel for tiles of @p spacing outputs: writes
/// merge_partition_count(a_count + b_count, spacing) boundaries to @p partitions.
template <Bounds bounds, PartitionSearch search = PartitionSearch::by_bits, class AIt, class BIt, class Comp>
void launch_merge_path_partitions(AIt a, std::int64_t a_count, BIt b, std::int64_t b_count, std::int64_t spacing,
                                  std::int64_t* partitions, Comp comp, cudaStream_t stream) {
  constexpr int kThreads = 128;
  const std::size_t count =
      merge_partition_count(static_cast<std::size_t>(a_count + b_count), static_cast<std::size_t>(spacing));
  merge_path_partitions<bounds, search><<<grid_of(ceil_div(count, kThreads)), kThreads, 0, stream>>>(
      a, a_count, b, b_count, spacing, static_cast<std::int64_t>(count), partitions, comp);
  STEPWISE_CHECK_LAUNCH();
}

/// The warps a SM holds at once on sm_90.
inline constexpr std::size_t kWarpsPerSm = 64;

/// Whether a partition kernel over @p boundaries tile boundaries does better with a warp per
/// boundary (merge_path_partitions_by_warp, merge_sort_partitions_by_warp) than a thread: while
/// those warps fit the GPU at once (kWarpsPerSm a SM). The kernel is then one wave, and its time
/// the longest search, which 32 probes a step shorten about fourfold; with more boundaries the
/// warps' probes cost more L2 traffic than the steps they save (chapter 09 measures both).
inline bool boundaries_fit_a_warp_each(std::size_t boundaries) {
  return boundaries <= static_cast<std::size_t>(current_sm_count()) * kWarpsPerSm;
}

/// The same boundaries, one warp per boundary (warp_merge_path: 32 probes a step, about log32 of
/// the diagonal's length in round trips to memory instead of log2), for merges cut into few
/// tiles, where the kernel is one wave and its time its longest search. Ready for a dependent
/// launch (device/grid_dependency.cuh): it waits for the kernel before it before its first read
/// and at once lets the next kernel start. Lane 0 writes the boundary.
template <Bounds bounds, class AIt, class BIt, class Comp>
__global__ void merge_path_partitions_by_warp(AIt a, std::int64_t a_count, BIt b, std::int64_t b_count,
                                              std::int64_t spacing, std::int64_t count, std::int64_t* partitions,
                                              Comp comp) {
  const std::int64_t p = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (p >= count) return;  // the same for the whole warp
  wait_for_prior_grid();
  allow_next_grid();
  const std::int64_t total = a_count + b_count;
  const std::int64_t diagonal = p * spacing < total ? p * spacing : total;
  const std::int64_t boundary = warp_merge_path<bounds>(a, a_count, b, b_count, diagonal, comp);
  if (threadIdx.x % 32 == 0) partitions[p] = boundary;
}

/// Enqueues merge_path_partitions_by_warp for tiles of @p spacing outputs (the boundaries of
/// launch_merge_path_partitions, a warp each), with @p dependent as a programmatic dependent
/// launch.
template <Bounds bounds, class AIt, class BIt, class Comp>
void launch_merge_path_partitions_by_warp(AIt a, std::int64_t a_count, BIt b, std::int64_t b_count,
                                          std::int64_t spacing, std::int64_t* partitions, Comp comp,
                                          cudaStream_t stream, bool dependent = false) {
  constexpr int kThreads = 128;
  const std::size_t count =
      merge_partition_count(static_cast<std::size_t>(a_count + b_count), static_cast<std::size_t>(spacing));
  launch_dependent(dependent, merge_path_partitions_by_warp<bounds, AIt, BIt, Comp>,
                   grid_of(ceil_div(count, std::size_t{kThreads / 32})), kThreads, 0, stream, a, a_count, b, b_count,
                   spacing, static_cast<std::int64_t>(count), partitions, comp);
}

}  // namespace stepwise
