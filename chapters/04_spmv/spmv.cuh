/// @file spmv.cuh
/// Device pieces of the merge-based stages (4 and 5): the tile bodies of Merrill and Garland's
/// merge-based SpMV (stage 4's MergeSpmvTile, stage 5's CompactMergeSpmvTile), the tile
/// carries and the fix-up kernel that adds them, and the launches around them.
///
/// The decomposition: SpMV is a merge of two sorted lists, the row ends (offsets[1 .. rows],
/// B) and the nonzero indices (0, 1, ..., nnz - 1, A, a counting sequence never stored).
/// Walking the merge, a nonzero j is consumed while j < the current row's end (it adds
/// values[j] * x[columns[j]] to the running sum), and a row end is consumed when every nonzero
/// of the row has been (it writes the row's sum and starts the next). That is the
/// load-balancing search of common/algorithm/load_balance.hpp with row ends instead of row starts:
/// Bounds::upper, ties take the row end first, so an empty row costs one step. Cutting the
/// merge every NT x VT items gives every tile, and inside it every thread, exactly VT items of
/// work, whatever the row lengths: a row of a million nonzeros is spread over many threads and
/// tiles, a run of empty rows costs one item per row.
///
/// A row that crosses a thread boundary gets its pieces added in shared memory (stage 4: each
/// thread's last partial sum goes to the row it ends in, atomically; stage 5: a segmented scan);
/// a row that crosses a tile boundary leaves a carry (row, partial sum) per tile, which a
/// fix-up kernel adds to y after the tiles are done. The additions are atomic, so y's last bits
/// may change from run to run when rows cross tiles (in stage 4, threads too): always within
/// the chapter's tolerance (matrix.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "algorithm/merge_path.hpp"
#include "device/merge_tile.cuh"
#include "device/warp.cuh"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "kernels/merge_path_partitions.cuh"
#include "spmv.hpp"

namespace stepwise::spmv {

/// What a tile leaves for the fix-up: the partial sum of the row open at its end (its last
/// nonzeros belong to a row that ends in a later tile), or row -1 when there is none.
template <class T>
struct Carry {
  std::int32_t row;
  T value;
};

/// Bytes of MergeSpmvTile's Storage for @p threads x @p items with values of @p value_bytes: per item
/// a product, a row end and a row sum, plus the tile's carry.
constexpr std::size_t merge_tile_bytes(int threads, int items, std::size_t value_bytes) {
  return static_cast<std::size_t>(threads) * static_cast<std::size_t>(items) *
             (2 * value_bytes + sizeof(std::int32_t)) +
         value_bytes;
}

/// One tile of the merge-based SpMV: NT threads, VT merge items (row ends and nonzeros) each.
template <int NT, int VT, class T>
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
        column[i] = matrix.columns[first_nz + slot];
        value[i] = matrix.values[first_nz + slot];
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

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// The L2 policy "evict first" (createpolicy), for loads of data read once.
__device__ __forceinline__ std::uint64_t evict_first_policy() {
  std::uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
#endif

/// A load of a stream read once (int32, float or double): not allocated in L1
/// (ld.global.nc.L1::no_allocate), so the lines of the stream never evict x's lines there, and
/// evicted first from L2, so they do not evict x's lines there either. Both need sm_80; older
/// GPUs get ld.global.cs (evict first, allocated in L1).
template <class T>
__device__ __forceinline__ T load_bypassing_l1(const T* address) {
  static_assert(std::is_same_v<T, std::int32_t> || std::is_same_v<T, float> || std::is_same_v<T, double>,
                "int32, float or double");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  T value;
  if constexpr (std::is_same_v<T, double>)
    asm("ld.global.nc.L1::no_allocate.L2::cache_hint.f64 %0, [%1], %2;"
        : "=d"(value)
        : "l"(address), "l"(evict_first_policy()));
  else if constexpr (std::is_same_v<T, float>)
    asm("ld.global.nc.L1::no_allocate.L2::cache_hint.f32 %0, [%1], %2;"
        : "=f"(value)
        : "l"(address), "l"(evict_first_policy()));
  else
    asm("ld.global.nc.L1::no_allocate.L2::cache_hint.b32 %0, [%1], %2;"
        : "=r"(value)
        : "l"(address), "l"(evict_first_policy()));
  return value;
#else
  return __ldcs(address);
#endif
}

/// The changes of CompactMergeSpmvTile over MergeSpmvTile, all on: the tile as stage 5 runs it.
/// Stage 5's variant rows turn one off each (a struct derived from this one that hides one
/// member), to measure what that change is worth.
struct CompactTileFeatures {
  /// The stream loads start at the 128-byte line below the tile's first nonzero (VT + 1 steps);
  /// off: at the first nonzero (VT steps), as stage 4's, a warp's load straddling two lines.
  static constexpr bool line_aligned_loads = true;
  /// The stream loads bypass L1 and are evicted first from L2 (load_bypassing_l1); off: ordinary
  /// loads, as stage 4's.
  static constexpr bool bypass_l1 = true;
  /// One buffer of NT x VT slots for the row ends, the products and the row sums (4 bytes an item
  /// in float32, 8 in float64); off: stage 4's three arrays (12 and 20 bytes an item).
  static constexpr bool compact_storage = true;
  /// A row split between threads summed by a segmented scan of the threads' last partial sums;
  /// off: by shared-memory atomics into the row sums and the tile's carry, as stage 4.
  static constexpr bool segmented_scan = true;
};

/// Stage 5's tile of the merge-based SpMV: MergeSpmvTile's decomposition in less shared memory
/// (4 bytes an item in float32, 8 in float64, against 12 and 20) with line-sized stream loads.
/// What changed, and why (README, stage 5):
/// - One buffer of NT x VT slots holds the tile's row ends and then its products (a tile's rows
///   and nonzeros are NT x VT items together), later the sums of its rows. A thread keeps the
///   sums of the rows it ends in registers until every thread is done reading the buffer.
/// - A row split between threads has its pieces added by a segmented scan of the threads'
///   last partial sums (shuffles within a warp, one shared slot per warp across them) instead
///   of shared-memory atomics: no row_sums array, and no atomics inside the tile.
/// - The columns and values are read from the 128-byte line below the tile's first nonzero:
///   every warp-wide load is one whole line, one L2 request, where a load that straddles two
///   lines costs two. On random columns L2's request rate is the bound, so requests are time.
/// - They bypass L1 (load_bypassing_l1), which holds x's lines only.
/// The smaller tile leaves the SM's L1 to x and lets more tiles run at once.
///
/// @tparam Features which of those changes are on (CompactTileFeatures: all of them, but in stage
///         5's variant rows)
template <int NT, int VT, class T, class Features = CompactTileFeatures>
struct CompactMergeSpmvTile {
  static constexpr int kTile = NT * VT;
  static constexpr int kWarps = NT / 32;
  /// Elements of the 128-byte line the loads start from (32 int32 columns; 32 values are one
  /// float32 line or two float64 lines).
  static constexpr int kLineElements = 32;
  /// Steps of each thread's stream loads: VT + 1 from the line below the first nonzero, VT from it.
  static constexpr int kLoadSteps = Features::line_aligned_loads ? VT + 1 : VT;
  static_assert(kTile >= kMinTileItems, "the workspace holds the boundaries of tiles of kMinTileItems or more");
  static_assert(NT % 32 == 0 && NT <= 1024, "whole warps");
  static_assert(VT <= 32, "a thread marks the rows it ends in a 32-bit mask");
  static_assert(Features::compact_storage || Features::segmented_scan,
                "stage 4's three arrays are a variant of the scan's tile (one change undone at a time)");

  /// The tile's shared memory (compact storage, segmented scan: the tile as stage 5 runs it).
  struct CompactStorage {
    /// Row ends (int32, the first row_count x 4 bytes), then the products (T, from the next
    /// multiple of sizeof(T)); after the walk, the row sums (T, from the start).
    alignas(16) unsigned char slots[(kTile + 1) * sizeof(T)];
    std::int32_t warp_rows[kWarps];  ///< each warp's last thread's open row
    T warp_sums[kWarps];             ///< and the partial sum of that row within the warp
  };
  /// The shared memory without compact storage: stage 4's three arrays, and the scan's slots.
  struct SplitStorage {
    T products[kTile];               ///< values[j] * x[columns[j]] of the tile's nonzeros
    std::int32_t row_ends[kTile];    ///< the tile's row ends, less the tile's first nonzero index
    T row_sums[kTile];               ///< the sums of the rows that end in the tile
    std::int32_t warp_rows[kWarps];  ///< each warp's last thread's open row
    T warp_sums[kWarps];             ///< and the partial sum of that row within the warp
  };
  /// The shared memory without the segmented scan: the buffer of slots and the tile's carry.
  struct AtomicStorage {
    alignas(16) unsigned char slots[(kTile + 1) * sizeof(T)];  ///< as CompactStorage's
    T carry;  ///< the partial sum of the row open at the tile's end, added to atomically
  };
  /// The tile's shared memory.
  using Storage =
      std::conditional_t<Features::compact_storage,
                         std::conditional_t<Features::segmented_scan, CompactStorage, AtomicStorage>, SplitStorage>;

  /// A load of the matrix's streams (columns, values): bypassing L1, or ordinary.
  template <class U>
  __device__ __forceinline__ static U load_stream(const U* address) {
    if constexpr (Features::bypass_l1)
      return load_bypassing_l1(address);
    else
      return *address;
  }

  /// Runs tile blockIdx.x: writes y of every row that ends in the tile, and the tile's carry.
  __device__ static void run(const CsrView<T>& matrix, const T* __restrict__ x, T* __restrict__ y,
                             const std::int64_t* __restrict__ partitions, Carry<T>* __restrict__ carries,
                             Storage& storage) {
    const MergeRange<std::int64_t> range = this_tile_range(matrix.nnz, matrix.rows, kTile, partitions);
    const int nz_count = static_cast<int>(range.a_count());
    const int row_count = static_cast<int>(range.b_count());
    const std::int64_t first_nz = range.a_begin;
    constexpr int kValueBytes = static_cast<int>(sizeof(T));
    std::int32_t* row_ends;
    T* products;
    if constexpr (Features::compact_storage) {
      row_ends = reinterpret_cast<std::int32_t*>(storage.slots);
      products = reinterpret_cast<T*>(storage.slots) + (row_count * 4 + kValueBytes - 1) / kValueBytes;
    } else {
      row_ends = storage.row_ends;
      products = storage.products;
    }
    if constexpr (!Features::segmented_scan) {
      if (threadIdx.x == 0) storage.carry = T(0);
    }

    // 1. Loads: the columns and values from the line below the first nonzero (VT + 1 steps cover
    //    the shift), all in flight before the gathers of x; the row ends, coalesced.
    int shift = 0;
    if constexpr (Features::line_aligned_loads) shift = static_cast<int>(first_nz % kLineElements);
    std::int32_t column[kLoadSteps];
    T value[kLoadSteps];
#pragma unroll
    for (int i = 0; i < kLoadSteps; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT) - shift;
      if (slot >= 0 && slot < nz_count) {
        column[i] = load_stream(matrix.columns + first_nz + slot);
        value[i] = load_stream(matrix.values + first_nz + slot);
      }
    }
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot < row_count)
        row_ends[slot] = static_cast<std::int32_t>(matrix.offsets[range.b_begin + 1 + slot] - first_nz);
    }
#pragma unroll
    for (int i = 0; i < kLoadSteps; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT) - shift;
      if (slot >= 0 && slot < nz_count) products[slot] = value[i] * __ldg(x + column[i]);
    }
    __syncthreads();

    // 2. The walk of stage 4: a nonzero adds its product, a row end keeps the running sum (in
    //    sums[i], marked in `ends`) and starts the next row.
    const int diagonal = min(VT * static_cast<int>(threadIdx.x), nz_count + row_count);
    const CountingIterator<int> nonzeros{0};
    int nz = merge_path<Bounds::upper>(nonzeros, nz_count, row_ends, row_count, diagonal, Less{});
    int row = diagonal - nz;
    const int first_row = row;
    T running = T(0);
    T sums[VT];
    unsigned ends = 0;
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      sums[i] = running;
      if (nz < nz_count && (row >= row_count || nz < row_ends[row])) {
        running += products[nz++];
      } else if (row < row_count) {
        ends |= 1u << i;
        running = T(0);
        ++row;
      }
    }
    T* row_sums;
    if constexpr (Features::compact_storage)
      row_sums = reinterpret_cast<T*>(storage.slots);
    else
      row_sums = storage.row_sums;

    if constexpr (Features::segmented_scan) {
      // 3. The segmented scan: each thread's last partial sum belongs to the row it stopped in
      //    (`row`), which the next threads continue. Rows never decrease from thread to thread, so
      //    equal rows are neighbours and an inclusive scan that adds only across equal rows sums
      //    every piece of a row split between threads.
      const int lane = static_cast<int>(threadIdx.x) % 32;
      const int warp = static_cast<int>(threadIdx.x) / 32;
      T inclusive = running;
#pragma unroll
      for (int offset = 1; offset < 32; offset *= 2) {
        const int before_row = __shfl_up_sync(kFullWarp, row, offset);
        const T before_sum = __shfl_up_sync(kFullWarp, inclusive, offset);
        if (lane >= offset && before_row == row) inclusive += before_sum;
      }
      if (lane == 31) {
        storage.warp_rows[warp] = row;
        storage.warp_sums[warp] = inclusive;
      }
      __syncthreads();       // every warp's last sum is out, and every thread is done with the buffer
      int carried_row = -1;  // the open row at the end of the warps before this one, and its sum
      T carried_sum = T(0);
      for (int w = 0; w < warp; ++w) {
        carried_sum = storage.warp_rows[w] == carried_row ? carried_sum + storage.warp_sums[w] : storage.warp_sums[w];
        carried_row = storage.warp_rows[w];
      }
      const int first_lane_row = __shfl_sync(kFullWarp, row, 0);
      const int previous_row = __shfl_up_sync(kFullWarp, row, 1);
      const T previous_sum = __shfl_up_sync(kFullWarp, inclusive, 1);
      // What the threads before this one add to the row it started in.
      T before = lane > 0 && previous_row == first_row ? previous_sum : T(0);
      if ((lane == 0 || first_lane_row == first_row) && carried_row == first_row) before += carried_sum;

      // 4. The row sums into the buffer, then coalesced stores; the last thread's scan total is
      //    the tile's carry when its row is still open.
      int sum_row = first_row;
#pragma unroll
      for (int i = 0; i < VT; ++i) {
        if ((ends >> i) & 1u) {
          row_sums[sum_row] = sum_row == first_row ? sums[i] + before : sums[i];
          ++sum_row;
        }
      }
      if (threadIdx.x == NT - 1) {
        const bool open = row == row_count && range.b_end < matrix.rows;
        const T total = inclusive + (first_lane_row == row && carried_row == row ? carried_sum : T(0));
        carries[blockIdx.x] = {open ? static_cast<std::int32_t>(range.b_end) : -1, open ? total : T(0)};
      }
      __syncthreads();
    } else {
      // 3. Without the scan, as stage 4: once every thread is done with the buffer, the row sums
      //    go into it, and each thread's last partial sum is added atomically to the row it
      //    stopped in (a later thread stored that row's first sum), or to the tile's carry.
      __syncthreads();
      int sum_row = first_row;
#pragma unroll
      for (int i = 0; i < VT; ++i) {
        if ((ends >> i) & 1u) row_sums[sum_row++] = sums[i];
      }
      __syncthreads();
      if (running != T(0)) atomicAdd(row < row_count ? &row_sums[row] : &storage.carry, running);
      __syncthreads();
      if (threadIdx.x == 0)
        carries[blockIdx.x] = {range.b_end < matrix.rows ? static_cast<std::int32_t>(range.b_end) : -1, storage.carry};
    }
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot < row_count) y[range.b_begin + slot] = row_sums[slot];
    }
  }
};

/// Whether CompactMergeSpmvTile<NT, VT, T, Features> fits the 48 KiB of static shared memory a block may have.
template <int NT, int VT, class T, class Features = CompactTileFeatures>
inline constexpr bool kCompactTileFits = sizeof(typename CompactMergeSpmvTile<NT, VT, T, Features>::Storage) <=
                                         48 * 1024;

/// Whether MergeSpmvTile<NT, VT, T> fits the 48 KiB of static shared memory a block may have.
template <int NT, int VT, class T>
inline constexpr bool kMergeTileFits = merge_tile_bytes(NT, VT, sizeof(T)) <= 48 * 1024;

/// The compiled tiles of @p threads x @p values whose merge tiles fit (kMergeTileFits), for a
/// stage's sweep.
template <class T, int... Threads, int... Values>
std::vector<LaunchShape> merge_tile_shapes(IntList<Threads...> threads, IntList<Values...> values) {
  std::vector<LaunchShape> shapes;
  for (const LaunchShape& shape : tile_grid(threads, values))
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

/// add_tile_carries with the carries summed in the warp first. A row longer than a tile ends
/// many consecutive tiles, whose carries all go to one y: one atomic each queues them at one L2
/// address (about 13,000 on the huge-row matrix). Here a warp's 32 consecutive carries are
/// split into runs of equal rows, each run summed by shuffles (a segmented suffix sum: a lane
/// adds the partial sum `width` lanes down until its range holds the run's last lane), and the
/// run's first lane adds the sum with one atomic: at most one atomic per warp and row.
template <class T>
__global__ void add_tile_carries_by_warp(const Carry<T>* __restrict__ carries, std::int64_t tile_count,
                                         T* __restrict__ y) {
  const std::int64_t tile = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  Carry<T> carry{-1, T(0)};  // past the last tile: a row of its own, adding nothing
  if (tile < tile_count) carry = carries[tile];
  const std::int32_t next_row = __shfl_down_sync(kFullWarp, carry.row, 1);
  const std::int32_t previous_row = __shfl_up_sync(kFullWarp, carry.row, 1);
  // closed: the lanes [lane, lane + width) summed so far include the last lane of this run.
  int closed = lane == 31 || next_row != carry.row;
  T sum = carry.value;
  for (unsigned width = 1; width < 32; width *= 2) {
    const T further = shuffle_down(sum, width);
    const int further_closed = __shfl_down_sync(kFullWarp, closed, width);
    if (!closed) {  // lane + width is in this run (lane 31 always closes its run)
      sum += further;
      closed = further_closed;
    }
  }
  const bool first_of_run = lane == 0 || previous_row != carry.row;
  if (first_of_run && carry.row >= 0 && sum != T(0)) atomicAdd(y + carry.row, sum);
}

/// Enqueues the search of where the merge path of @p matrix crosses every @p tile_items-th
/// diagonal: the tile boundaries (merge_partition_count of them) into @p partitions.
template <class T>
void search_tile_boundaries(const CsrView<T>& matrix, int tile_items, std::int64_t* partitions, cudaStream_t stream) {
  launch_merge_path_partitions<Bounds::upper>(CountingIterator<std::int64_t>{0}, matrix.nnz, matrix.offsets + 1,
                                              static_cast<std::int64_t>(matrix.rows), tile_items, partitions, Less{},
                                              stream);
}

/// Enqueues the merge-based SpMV's tiles of NT x VT items, whose boundaries are in
/// @p partitions, and the carry fix-up after them: two launches on @p stream.
/// @tparam WARP_CARRIES the fix-up sums a warp's carries per row first (add_tile_carries_by_warp);
///         false: one atomic per tile (add_tile_carries)
template <int NT, int VT, bool WARP_CARRIES = false, class T, class Kernel>
void launch_merge_tiles(Kernel kernel, const CsrView<T>& matrix, const T* x, T* y, const std::int64_t* partitions,
                        SpmvScratch& workspace, cudaStream_t stream) {
  const std::size_t total = static_cast<std::size_t>(matrix.nnz) + static_cast<std::size_t>(matrix.rows);
  const std::size_t tiles = ceil_div(total, NT * VT);
  auto* carries = static_cast<Carry<T>*>(workspace.carries(tiles, sizeof(Carry<T>)));
  kernel<<<grid_of(tiles), NT, 0, stream>>>(matrix, x, y, partitions, carries);
  STEPWISE_CHECK_LAUNCH();
  constexpr int kFixupThreads = 256;
  const auto fixup = WARP_CARRIES ? add_tile_carries_by_warp<T> : add_tile_carries<T>;
  fixup<<<grid_of(ceil_div(tiles, kFixupThreads)), kFixupThreads, 0, stream>>>(carries,
                                                                               static_cast<std::int64_t>(tiles), y);
  STEPWISE_CHECK_LAUNCH();
}

/// The merge-based SpMV with tiles of NT x VT items as stage 4 runs it: the search of the tile
/// boundaries, the tiles and the carry fix-up, three launches on @p stream.
/// @tparam WARP_CARRIES as launch_merge_tiles
template <int NT, int VT, bool WARP_CARRIES = false, class T, class Kernel>
void launch_merge_spmv(Kernel kernel, const CsrView<T>& matrix, const T* x, T* y, SpmvScratch& workspace,
                       cudaStream_t stream) {
  constexpr int kTile = NT * VT;
  if (matrix.rows == 0) return;
  const std::size_t total = static_cast<std::size_t>(matrix.nnz) + static_cast<std::size_t>(matrix.rows);
  std::int64_t* partitions = workspace.partitions(merge_partition_count(total, kTile));
  search_tile_boundaries(matrix, kTile, partitions, stream);
  launch_merge_tiles<NT, VT, WARP_CARRIES>(kernel, matrix, x, y, partitions, workspace, stream);
}

}  // namespace stepwise::spmv
