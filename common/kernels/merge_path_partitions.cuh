/// @file merge_path_partitions.cuh
/// The first level of Baxter's Merge Path decomposition (device/merge_tile.cuh holds the second):
/// the partition kernel, which cuts the merge of A and B into tiles of `spacing` outputs by one
/// Merge Path search in global memory per tile boundary (the diagonals 0, spacing, 2*spacing, ...,
/// and the end), and its host launcher, launch_merge_path_partitions(). Tile t then merges exactly
/// the outputs [t*spacing, (t+1)*spacing): the A and B ranges between boundaries t and t+1
/// (this_tile_range() in merge_tile.cuh reads them).
///
/// Launched before every tiled Merge Path kernel: chapter 03's merges, sorted searches and
/// load-balancing searches, chapter 04's merge-based SpMV (spmv.cuh) and chapter 08's joins
/// (join.cuh and its tiled stages).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "algorithm/merge_path.hpp"
#include "host/check.hpp"
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

}  // namespace stepwise
