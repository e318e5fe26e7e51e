/// @file join.cuh
/// The pieces every stage of chapter 08 shares: the workspace carved into the phases' arrays,
/// the per-object row count and its scan (CUB's: the scan's lesson is chapter 02's), the writing
/// of one output row, the sorted-search tile kernel, and the load-balanced expansion. The
/// sorted search and the load-balancing search themselves are chapter 03's, from common/
/// (sorted_search.hpp, load_balance.hpp, merge_tile.cuh).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "algorithm/merge_path.hpp"
#include "device/merge_tile.cuh"
#include "host/check.hpp"
#include "host/launch.hpp"
#include "join.hpp"
#include "kernels/merge_path_partitions.cuh"

namespace stepwise::join {

/// The smallest tile (NT x VT) any tiled stage compiles: it sizes the partition arrays. Every
/// tiled kernel static_asserts that its tiles are no smaller.
inline constexpr int kMinTileItems = 128 * 7;

/// The workspace as the three phases use it.
struct Scratch {
  std::int32_t* lower = nullptr;        ///< per A row: lower bound of its key in B
  std::int32_t* upper = nullptr;        ///< per A row: upper bound of its key in B
  std::uint8_t* b_matched = nullptr;    ///< per B row: 1 when some A key equals it (right, outer)
  std::int32_t* offsets = nullptr;      ///< per object (object_count_of), and one more: the total
  std::int64_t* partitions = nullptr;   ///< kPartitionSets sets of tile boundaries
  std::size_t partition_count = 0;      ///< boundaries per set
  std::int32_t* row_objects = nullptr;  ///< the library row: per output row, its object's upper bound
  void* scan_temp = nullptr;            ///< CUB's scan
  std::size_t scan_temp_bytes = 0;
  std::int32_t* b_rows = nullptr;     ///< stage 4: per B row, its place among B's unmatched rows, or -1
  unsigned char* lookback = nullptr;  ///< stage 4: the ticket and the tile statuses (packed_lookback_layout)
  std::size_t lookback_tiles = 0;     ///< statuses the lookback region holds
};

/// Partition arrays in the workspace: stage 3 searches the lower and the upper bounds at once.
inline constexpr int kPartitionSets = 2;

/// The objects of a join: A's rows, then B's rows when the join keeps B's unmatched rows (a
/// right or outer join); an inner or left join's B rows never emit a row, so they are not
/// scanned or merged.
inline std::size_t object_count_of(const JoinArgs& args) {
  return args.a_count + (keeps_unmatched_b(args.kind) ? args.b_count : 0);
}

/// Cuts @p workspace into the arrays of a join of @p args.
/// @throws std::invalid_argument when the workspace is too small for them.
Scratch carve(const JoinArgs& args, Workspace& workspace);

/// The output rows each object emits: A row i its matches upper - lower, or one unmatched row
/// when the join keeps A's unmatched rows; B row j one when unmatched and the join keeps B's;
/// objects past the last (the scan's extra entry) none.
struct RowCount {
  const std::int32_t* lower;
  const std::int32_t* upper;
  const std::uint8_t* b_matched;
  std::int64_t a_count;
  std::int64_t object_count;
  bool keep_a;
  bool keep_b;
  __host__ __device__ std::int32_t operator()(std::int64_t object) const {
    if (object < a_count) {
      const std::int32_t matches = upper[object] - lower[object];
      return matches > 0 ? matches : (keep_a ? 1 : 0);
    }
    if (object < object_count && keep_b) return b_matched[object - a_count] ? 0 : 1;
    return 0;
  }
};

/// Writes output row @p row, rank @p rank of object @p object: (A row, its B match or -1) for
/// the A rows, (-1, B row) for the B rows. Without upper bounds (upper null), lower holds each
/// A row's first match, or -1 when it has none.
struct RowWriter {
  std::int32_t* out_a;
  std::int32_t* out_b;
  const std::int32_t* lower;
  const std::int32_t* upper;
  std::int32_t a_count;
  __device__ __forceinline__ void write(std::int32_t row, std::int32_t object, std::int32_t rank) const {
    if (object < a_count) {
      const std::int32_t first = lower[object];
      const bool matched = upper != nullptr ? upper[object] > first : first >= 0;
      out_a[row] = object;
      out_b[row] = matched ? first + rank : -1;
    } else {
      out_a[row] = -1;
      out_b[row] = object - a_count;
    }
  }
};

/// The count functor of @p args over @p scratch.
RowCount row_count_of(const JoinArgs& args, const Scratch& scratch);
/// The row writer of @p args over @p scratch.
RowWriter row_writer_of(const JoinArgs& args, const Scratch& scratch);

/// Phase 2: scratch.offsets[o] = the rows of objects 0 .. o-1, for o = 0 .. object_count_of(args)
/// (the last entry is the join's row count): cub::DeviceScan::ExclusiveSum over RowCount.
void scan_row_counts(const JoinArgs& args, const Scratch& scratch, cudaStream_t stream);

/// CUB's temporary storage for scan_row_counts over @p object_count objects (asks CUB).
std::size_t scan_temp_bytes(std::size_t object_count);

/// One tile of the vectorized sorted search of @p needles in @p haystack (common/
/// SortedSearchTile), and `finish(needle, bound)` for each needle of the tile.
template <int NT, int VT, Bounds bounds, class Finish>
__global__ void __launch_bounds__(NT)
    search_tiles(const std::int32_t* __restrict__ needles, std::int64_t needle_count,
                 const std::int32_t* __restrict__ haystack, std::int64_t haystack_count,
                 const std::int64_t* __restrict__ partitions, Finish finish) {
  using Tile = SortedSearchTile<NT, VT, bounds, std::int32_t>;
  static_assert(Tile::kTile >= kMinTileItems, "the partition arrays hold boundaries of kMinTileItems tiles or more");
  __shared__ typename Tile::Storage storage;
  const MergeRange<std::int64_t> range =
      Tile::run(needles, needle_count, haystack, haystack_count, partitions, storage);
  const int a_count = static_cast<int>(range.a_count());
  for (int j = threadIdx.x; j < a_count; j += NT) finish(range.a_begin + j, storage.results[j]);
}

/// Stores each needle's bound.
struct StoreBound {
  std::int32_t* bounds;
  __device__ __forceinline__ void operator()(std::int64_t needle, std::int32_t bound) const { bounds[needle] = bound; }
};

/// From a B key's lower bound in A: whether A holds that key.
struct StoreMatched {
  const std::int32_t* a_keys;
  std::int64_t a_count;
  const std::int32_t* b_keys;
  std::uint8_t* b_matched;
  __device__ __forceinline__ void operator()(std::int64_t row, std::int32_t lower_in_a) const {
    b_matched[row] = lower_in_a < a_count && a_keys[lower_in_a] == b_keys[row];
  }
};

/// Enqueues the partition kernel and the tiles of one sorted search (NT x VT per tile), with
/// partition set 0.
template <int NT, int VT, Bounds bounds, class Finish>
void launch_search(const std::int32_t* needles, std::size_t needle_count, const std::int32_t* haystack,
                   std::size_t haystack_count, const Scratch& scratch, Finish finish, cudaStream_t stream) {
  if (needle_count == 0) return;
  constexpr int kTile = NT * VT;
  const std::size_t total = needle_count + haystack_count;
  const auto nn = static_cast<std::int64_t>(needle_count);
  const auto nh = static_cast<std::int64_t>(haystack_count);
  launch_merge_path_partitions<bounds>(needles, nn, haystack, nh, kTile, scratch.partitions, Less{}, stream);
  search_tiles<NT, VT, bounds>
      <<<grid_of(ceil_div(total, kTile)), NT, 0, stream>>>(needles, nn, haystack, nh, scratch.partitions, finish);
  STEPWISE_CHECK_LAUNCH();
}

/// The expansion's tile boundaries: the Merge Path of the first `rows` output rows (a counting
/// sequence) with the objects' offsets, cut every @p spacing steps, where rows = min(the row
/// count the scan left in offsets[object_count], capacity): read on the device, so that the
/// host never waits for the count.
__global__ void expansion_partitions(const std::int32_t* offsets, std::int64_t object_count, std::int64_t capacity,
                                     std::int64_t spacing, std::int64_t count, std::int64_t* partitions);

/// Phase 3, load-balanced (Baxter's load-balancing search, common/LoadBalanceTile): tile t
/// takes exactly NT x VT steps of the merge of the output rows with the objects' offsets, so a
/// tile's work is the same whatever the counts are; each row is written by RowWriter with
/// coalesced stores. Block 0 also writes the row count (unless @p row_count is null).
template <int NT, int VT>
__global__ void __launch_bounds__(NT)
    expand_rows(RowWriter writer, const std::int32_t* __restrict__ offsets, std::int64_t object_count,
                std::int64_t capacity, const std::int64_t* __restrict__ partitions, unsigned long long* row_count) {
  using Tile = LoadBalanceTile<NT, VT>;
  static_assert(Tile::kTile >= kMinTileItems, "the partition arrays hold boundaries of kMinTileItems tiles or more");
  __shared__ typename Tile::Storage storage;
  const std::int32_t total = offsets[object_count];
  if (row_count != nullptr && blockIdx.x == 0 && threadIdx.x == 0) *row_count = static_cast<unsigned long long>(total);
  const std::int64_t rows = total < capacity ? total : capacity;
  const MergeRange<std::int64_t> range = Tile::run(offsets, object_count, rows, partitions, storage);
  const int a_count = static_cast<int>(range.a_count());
  const auto first_object = static_cast<std::int32_t>(range.b_begin - 1);
  const auto first_row = static_cast<std::int32_t>(range.a_begin);
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const int j = tile::strided_slot(i, threadIdx.x, NT);
    if (j < a_count) {
      const int local = storage.objects[j];
      writer.write(first_row + j, first_object + local, first_row + j - storage.offsets[local]);
    }
  }
}

/// Enqueues phase 3 with tiles of NT x VT steps (partition set 0) over the first
/// @p object_count objects: one tile per NT x VT of capacity + objects, at least one, which
/// writes the row count to @p row_count unless it is null; @p writer writes each row.
template <int NT, int VT>
void launch_expansion(const JoinArgs& args, const Scratch& scratch, cudaStream_t stream, std::size_t object_count,
                      unsigned long long* row_count, const RowWriter& writer) {
  constexpr int kTile = NT * VT;
  const auto objects = static_cast<std::int64_t>(object_count);
  const auto capacity = static_cast<std::int64_t>(args.capacity);
  const std::size_t tiles = std::max<std::size_t>(1, ceil_div(args.capacity + object_count, kTile));
  constexpr int kThreads = 128;
  expansion_partitions<<<grid_of(ceil_div(tiles + 1, kThreads)), kThreads, 0, stream>>>(
      scratch.offsets, objects, capacity, kTile, static_cast<std::int64_t>(tiles + 1), scratch.partitions);
  STEPWISE_CHECK_LAUNCH();
  expand_rows<NT, VT>
      <<<grid_of(tiles), NT, 0, stream>>>(writer, scratch.offsets, objects, capacity, scratch.partitions, row_count);
  STEPWISE_CHECK_LAUNCH();
}

/// Phase 3 over every object of the join (object_count_of), writing the row count.
template <int NT, int VT>
void launch_expansion(const JoinArgs& args, const Scratch& scratch, cudaStream_t stream) {
  launch_expansion<NT, VT>(args, scratch, stream, object_count_of(args), args.row_count, row_writer_of(args, scratch));
}

}  // namespace stepwise::join
