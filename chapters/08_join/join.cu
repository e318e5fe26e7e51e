// The phases every stage of chapter 08 shares: the workspace's arrays, the scan of the row
// counts (CUB), the expansion's partition kernel.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_scan.cuh>

#include <stdexcept>
#include <string>

#include "algorithm/lookback.hpp"
#include "join.cuh"

namespace stepwise::join {
namespace {

/// Bytes of @p count elements of T, rounded up to 256 (every array starts 256-byte aligned).
template <class T>
constexpr std::size_t aligned_bytes(std::size_t count) {
  return (count * sizeof(T) + 255) / 256 * 256;
}

std::size_t partitions_per_set(std::size_t a_count, std::size_t b_count, std::size_t capacity) {
  return (a_count + b_count + capacity) / kMinTileItems + 2;
}

/// The counts as CUB reads them: RowCount of 0, 1, 2, ...
using CountIterator = thrust::transform_iterator<RowCount, thrust::counting_iterator<std::int64_t>>;

/// Tiles of the merge of A and B at the smallest tile: the statuses stage 4's look-back needs.
std::size_t merge_tiles(std::size_t a_count, std::size_t b_count) { return (a_count + b_count) / kMinTileItems + 1; }

std::size_t layout_bytes(std::size_t a_count, std::size_t b_count, std::size_t capacity, std::size_t temp_bytes) {
  return 2 * aligned_bytes<std::int32_t>(a_count) + aligned_bytes<std::uint8_t>(b_count) +
         aligned_bytes<std::int32_t>(a_count + b_count + 1) +
         kPartitionSets * aligned_bytes<std::int64_t>(partitions_per_set(a_count, b_count, capacity)) +
         aligned_bytes<std::int32_t>(capacity) + aligned_bytes<unsigned char>(temp_bytes) +
         aligned_bytes<std::int32_t>(b_count) +
         aligned_bytes<unsigned char>(packed_lookback_layout(merge_tiles(a_count, b_count)).total_bytes);
}

/// @p count elements of T at byte @p offset of @p workspace; @p offset moves past them, rounded
/// up to 256 bytes (every array starts 256-byte aligned).
template <class T>
T* take(Workspace& workspace, std::size_t& offset, std::size_t count) {
  T* at = workspace.carve<T>(offset, count);
  offset += aligned_bytes<T>(count);
  return at;
}

}  // namespace

std::size_t scan_temp_bytes(std::size_t object_count) {
  std::size_t bytes = 0;
  const CountIterator counts(thrust::counting_iterator<std::int64_t>(0), RowCount{});
  STEPWISE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, counts, static_cast<std::int32_t*>(nullptr),
                                                    static_cast<std::int64_t>(object_count + 1)));
  return bytes;
}

std::size_t join_workspace_bytes(std::size_t a_count, std::size_t b_count, std::size_t capacity) {
  return layout_bytes(a_count, b_count, capacity, scan_temp_bytes(a_count + b_count));
}

Scratch carve(const JoinArgs& args, Workspace& workspace) {
  const std::size_t temp = scan_temp_bytes(args.a_count + args.b_count);
  workspace.require(layout_bytes(args.a_count, args.b_count, args.capacity, temp));
  std::size_t offset = 0;
  Scratch scratch;
  scratch.lower = take<std::int32_t>(workspace, offset, args.a_count);
  scratch.upper = take<std::int32_t>(workspace, offset, args.a_count);
  scratch.b_matched = take<std::uint8_t>(workspace, offset, args.b_count);
  scratch.offsets = take<std::int32_t>(workspace, offset, args.a_count + args.b_count + 1);
  scratch.partition_count = partitions_per_set(args.a_count, args.b_count, args.capacity);
  scratch.partitions = workspace.carve<std::int64_t>(offset, kPartitionSets * scratch.partition_count);
  offset += kPartitionSets * aligned_bytes<std::int64_t>(scratch.partition_count);
  scratch.row_objects = take<std::int32_t>(workspace, offset, args.capacity);
  scratch.scan_temp = take<unsigned char>(workspace, offset, temp);
  scratch.scan_temp_bytes = temp;
  scratch.b_rows = take<std::int32_t>(workspace, offset, args.b_count);
  scratch.lookback_tiles = merge_tiles(args.a_count, args.b_count);
  scratch.lookback = take<unsigned char>(workspace, offset, packed_lookback_layout(scratch.lookback_tiles).total_bytes);
  return scratch;
}

RowCount row_count_of(const JoinArgs& args, const Scratch& scratch) {
  return RowCount{scratch.lower,
                  scratch.upper,
                  scratch.b_matched,
                  static_cast<std::int64_t>(args.a_count),
                  static_cast<std::int64_t>(object_count_of(args)),
                  keeps_unmatched_a(args.kind),
                  keeps_unmatched_b(args.kind)};
}

RowWriter row_writer_of(const JoinArgs& args, const Scratch& scratch) {
  return RowWriter{args.out_a, args.out_b, scratch.lower, scratch.upper, static_cast<std::int32_t>(args.a_count)};
}

void scan_row_counts(const JoinArgs& args, const Scratch& scratch, cudaStream_t stream) {
  const CountIterator counts(thrust::counting_iterator<std::int64_t>(0), row_count_of(args, scratch));
  std::size_t bytes = scratch.scan_temp_bytes;
  STEPWISE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.scan_temp, bytes, counts, scratch.offsets,
                                                    static_cast<std::int64_t>(object_count_of(args) + 1), stream));
}

__global__ void expansion_partitions(const std::int32_t* offsets, std::int64_t object_count, std::int64_t capacity,
                                     std::int64_t spacing, std::int64_t count, std::int64_t* partitions) {
  const std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= count) return;
  const std::int64_t total = offsets[object_count];
  const std::int64_t rows = total < capacity ? total : capacity;
  const std::int64_t steps = rows + object_count;
  const std::int64_t diagonal = p * spacing < steps ? p * spacing : steps;
  partitions[p] =
      merge_path<Bounds::upper>(CountingIterator<std::int64_t>{0}, rows, offsets, object_count, diagonal, Less{});
}

}  // namespace stepwise::join
