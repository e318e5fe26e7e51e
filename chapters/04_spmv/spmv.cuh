/// @file spmv.cuh
/// Device pieces the merge-based stages (4 and 5) share: the tile body of Merrill and Garland's
/// merge-based SpMV, the tile carries and the fix-up kernel that adds them.
///
/// The decomposition: SpMV is a merge of two sorted lists, the row ends (offsets[1 .. rows],
/// B) and the nonzero indices (0, 1, ..., nnz - 1, A, a counting sequence never stored).
/// Walking the merge, a nonzero j is consumed while j < the current row's end (it adds
/// values[j] * x[columns[j]] to the running sum), and a row end is consumed when every nonzero
/// of the row has been (it writes the row's sum and starts the next). That is the
/// load-balancing search of common/load_balance.hpp with row ends instead of row starts:
/// Bounds::upper, ties take the row end first, so an empty row costs one step. Cutting the
/// merge every NT x VT items gives every tile, and inside it every thread, exactly VT items of
/// work, whatever the row lengths: a row of a million nonzeros is spread over many threads and
/// tiles, a run of empty rows costs one item per row.
///
/// A row that crosses a thread boundary gets its pieces added in shared memory (each thread's
/// last partial sum goes to the row it ends in); a row that crosses a tile boundary leaves a
/// carry (row, partial sum) per tile, which a fix-up kernel adds to y after the tiles are
/// done. Both additions are atomic, so y's last bits may change from run to run when rows
/// cross threads: always within the chapter's tolerance (matrix.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "check.hpp"
#include "launch.hpp"
#include "merge_path.hpp"
#include "merge_tile.cuh"
#include "spmv.hpp"

namespace stepwise::spmv {

/// What a tile leaves for the fix-up: the partial sum of the row open at its end (its last
/// nonzeros belong to a row that ends in a later tile), or row -1 when there is none.
template <class T>
struct Carry {
  std::int32_t row;
  T value;
};

/// How a merge-based tile reads the matrix's two streams (columns and values, each read once).
enum class StreamLoads {
  cached,    ///< plain loads: the lines stay in L2 like any other
  streaming  ///< ld.global.cs (evict first): the streams pass through L2 without evicting x
};

/// One element of a stream read as @p kLoads says.
template <StreamLoads kLoads, class T>
__device__ __forceinline__ T load_stream(const T* address) {
  if constexpr (kLoads == StreamLoads::streaming)
    return __ldcs(address);
  else
    return *address;
}

/// Bytes of MergeSpmvTile's Storage for @p threads x @p items with values of @p value_bytes: per item
/// a product, a row end and a row sum, plus the tile's carry.
constexpr std::size_t merge_tile_bytes(int threads, int items, std::size_t value_bytes) {
  return static_cast<std::size_t>(threads) * static_cast<std::size_t>(items) *
             (2 * value_bytes + sizeof(std::int32_t)) +
         value_bytes;
}

/// One tile of the merge-based SpMV: NT threads, VT merge items (row ends and nonzeros) each.
/// @tparam kLoads how the columns and values are read
template <int NT, int VT, class T, StreamLoads kLoads>
struct MergeSpmvTile {
  static constexpr int kTile = NT * VT;
  static_assert(kTile >= kMinTileItems, "the workspace holds the boundaries of tiles of kMinTileItems or more");
  static_assert(NT % 32 == 0 && NT <= 1024, "whole warps");

  /// The tile's shared memory.
  struct Storage {
    T products[kTile];             ///< values[j] * x[columns[j]] of the tile's nonzeros
    std::int32_t row_ends[kTile];  ///< the tile's row ends, less the tile's first nonzero index
    T row_sums[kTile];             ///< the sums of the rows that end in the tile
    T carry;                       ///< the partial sum of the row open at the tile's end
  };
  static_assert(sizeof(Storage) == merge_tile_bytes(NT, VT, sizeof(T)), "merge_tile_bytes describes Storage");

  /// Runs tile blockIdx.x: writes y of every row that ends in the tile, and the tile's carry.
  __device__ static void run(const CsrView<T>& matrix, const T* __restrict__ x, T* __restrict__ y,
                             const std::int64_t* __restrict__ partitions, Carry<T>* __restrict__ carries,
                             Storage& storage) {
    const MergeRange<std::int64_t> range = this_tile_range(matrix.nnz, matrix.rows, kTile, partitions);
    const int nz_count = static_cast<int>(range.a_count());
    const int row_count = static_cast<int>(range.b_count());
    const std::int64_t first_nz = range.a_begin;

    // 1. Coalesced, strided loads: every column and value of the tile's nonzeros and every row
    //    end, all in flight before the x gathers that depend on the columns.
    std::int32_t column[VT];
    T value[VT];
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot < nz_count) {
        column[i] = load_stream<kLoads>(matrix.columns + first_nz + slot);
        value[i] = load_stream<kLoads>(matrix.values + first_nz + slot);
      }
    }
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot < row_count)
        storage.row_ends[slot] = static_cast<std::int32_t>(matrix.offsets[range.b_begin + 1 + slot] - first_nz);
    }
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot < nz_count) storage.products[slot] = value[i] * __ldg(x + column[i]);
    }
    if (threadIdx.x == 0) storage.carry = T(0);
    __syncthreads();

    // 2. Each thread finds where its diagonal crosses the merge of its tile and walks VT items:
    //    a nonzero adds its product, a row end stores the running sum and starts the next row.
    const int diagonal = min(VT * static_cast<int>(threadIdx.x), nz_count + row_count);
    const CountingIterator<int> nonzeros{0};
    int nz = merge_path<Bounds::upper>(nonzeros, nz_count, storage.row_ends, row_count, diagonal, Less{});
    int row = diagonal - nz;
    T running = T(0);
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      if (nz < nz_count && (row >= row_count || nz < storage.row_ends[row])) {
        running += storage.products[nz++];
      } else if (row < row_count) {
        storage.row_sums[row++] = running;
        running = T(0);
      }
    }
    __syncthreads();

    // 3. The thread's last partial sum belongs to the row it stopped in: a later thread of the
    //    tile stored that row's first sum (add to it), or the row is still open at the tile's
    //    end (add to the tile's carry).
    if (running != T(0)) atomicAdd(row < row_count ? &storage.row_sums[row] : &storage.carry, running);
    __syncthreads();

    // 4. Coalesced stores of the rows that ended in the tile, and the tile's carry.
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot < row_count) y[range.b_begin + slot] = storage.row_sums[slot];
    }
    if (threadIdx.x == 0)
      carries[blockIdx.x] = {range.b_end < matrix.rows ? static_cast<std::int32_t>(range.b_end) : -1, storage.carry};
  }
};

/// Whether MergeSpmvTile<NT, VT, T, ...> fits the 48 KiB of static shared memory a block may have.
template <int NT, int VT, class T>
inline constexpr bool kMergeTileFits = merge_tile_bytes(NT, VT, sizeof(T)) <= 48 * 1024;

/// The shapes of @p threads x @p values whose merge tiles fit (kMergeTileFits), for a stage's sweep.
template <class T>
std::vector<LaunchShape> merge_tile_shapes(const std::vector<int>& threads, const std::vector<int>& values) {
  std::vector<LaunchShape> shapes;
  for (const LaunchShape& shape : shape_grid(threads, values))
    if (merge_tile_bytes(shape.threads, shape.items, sizeof(T)) <= 48 * 1024) shapes.push_back(shape);
  return shapes;
}

/// Adds each tile's carry to the row it belongs to (after every tile has stored its rows).
template <class T>
__global__ void add_tile_carries(const Carry<T>* __restrict__ carries, std::int64_t tile_count, T* __restrict__ y) {
  const std::int64_t tile = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (tile >= tile_count) return;
  const Carry<T> carry = carries[tile];
  if (carry.row >= 0 && carry.value != T(0)) atomicAdd(y + carry.row, carry.value);
}

/// The merge-based SpMV with tiles of NT x VT items, its partition kernel before it and the
/// carry fix-up after it: three launches on @p stream.
template <int NT, int VT, StreamLoads kLoads, class T, class Kernel>
void launch_merge_spmv(Kernel kernel, const CsrView<T>& matrix, const T* x, T* y, Workspace& workspace,
                       cudaStream_t stream) {
  constexpr int kTile = NT * VT;
  if (matrix.rows == 0) return;
  const std::size_t total = static_cast<std::size_t>(matrix.nnz) + static_cast<std::size_t>(matrix.rows);
  const std::size_t tiles = ceil_div(total, kTile);
  std::int64_t* partitions = workspace.partitions(merge_partition_count(total, kTile));
  auto* carries = static_cast<Carry<T>*>(workspace.carries(tiles, sizeof(Carry<T>)));
  launch_merge_path_partitions<Bounds::upper>(CountingIterator<std::int64_t>{0}, matrix.nnz, matrix.offsets + 1,
                                              static_cast<std::int64_t>(matrix.rows), kTile, partitions, Less{},
                                              stream);
  kernel<<<grid_of(tiles), NT, 0, stream>>>(matrix, x, y, partitions, carries);
  STEPWISE_CHECK_LAUNCH();
  constexpr int kFixupThreads = 256;
  add_tile_carries<<<grid_of(ceil_div(tiles, kFixupThreads)), kFixupThreads, 0, stream>>>(
      carries, static_cast<std::int64_t>(tiles), y);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace stepwise::spmv
