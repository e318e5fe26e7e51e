/// @file scan.cuh
/// Device pieces several scan stages share: the scan-then-propagate recursion of stages 1-2
/// and the register-blocked reduce-then-scan of stages 3-5 (after moderngpu).
///
/// Napkin math: a scan must read n elements and write n, so its floor is a copy's time
/// (chapter 00), and every stage here does 1-2 operations per element: each is bound by the
/// traffic it generates, or by what stops it from keeping enough bytes in flight (barriers,
/// bank conflicts, latency). The README turns these into times on the GPUs it was run on.
///   - Scan-then-propagate (stages 1, 2): read n, write n, then read and write n again to
///     add the block prefixes back: 4n traffic, plus O(n log n) work in stage 1.
///   - Reduce-then-scan (stages 3-5): read n (upsweep), read n and write n (downsweep):
///     3n traffic. Only one total per block crosses between the passes.
///   - Single pass with decoupled look-back (stage 6): read n, write n: 2n, a copy's traffic.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "block.cuh"
#include "check.hpp"
#include "device.hpp"
#include "launch.hpp"
#include "scan.hpp"
#include "thread_ops.hpp"
#include "tile.cuh"

namespace stepwise::scan {

/// The launchers of the fixed-shape stages (1-5) call this first: their kernels are
/// compiled for one shape, which is their lesson.
/// @throws std::invalid_argument unless @p shape is @p compiled.
inline void require_shape(const LaunchShape& shape, const LaunchShape& compiled) {
  if (shape != compiled)
    throw std::invalid_argument("this stage is compiled for " + describe(compiled) + " only, not " + describe(shape));
}

// --------------------------------------------------------------------------------------
// Stages 1-2: scan each block, scan the block totals recursively, add them back.

/// Stages 1 and 2, the propagation pass: every element of block b (ITEMS per block) gets
/// the scanned total of the blocks before it, on its left.
template <int NT, int ITEMS, class Op>
__global__ void __launch_bounds__(NT)
    add_block_prefixes(typename Op::value_type* out, std::size_t n, const typename Op::value_type* block_prefixes) {
  static_assert(ITEMS % NT == 0, "a block's items must be a whole number of rows of NT");
  const Op op;
  if (blockIdx.x == 0) return;  // the first block's prefix is the identity
  const typename Op::value_type prefix = block_prefixes[blockIdx.x];
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * ITEMS;
#pragma unroll
  for (int row = 0; row < ITEMS / NT; ++row) {
    const std::size_t i = base + row * NT + threadIdx.x;
    if (i < n) out[i] = op(prefix, out[i]);
  }
}

/// Stages 1 and 2: scan each block of ITEMS elements with @p block_scan, scan the block
/// totals by the same method (recursively, until one block holds them all), and add them
/// back with @p add_prefixes. Levels of totals are stacked from @p totals (the workspace);
/// every level is enqueued without a host sync.
/// @param block_scan `(in, out, count, totals or nullptr, exclusive, grid)`: launches the block scan
/// @param add_prefixes `(out, count, prefixes, grid)`: launches add_block_prefixes
template <class Op, int ITEMS, class BlockScanLaunch, class AddLaunch>
void scan_then_propagate(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, bool exclusive,
                         typename Op::value_type* totals, BlockScanLaunch block_scan, AddLaunch add_prefixes) {
  static_assert(ITEMS >= kMinBlockItems, "the workspace holds the totals of blocks of kMinBlockItems or more");
  if (n == 0) return;
  const std::size_t blocks = ceil_div(n, ITEMS);
  if (blocks == 1) {
    block_scan(in, out, n, nullptr, exclusive, 1u);
    return;
  }
  block_scan(in, out, n, totals, exclusive, grid_of(blocks));
  scan_then_propagate<Op, ITEMS>(totals, totals, blocks, true, totals + blocks, block_scan, add_prefixes);
  add_prefixes(out, n, totals, grid_of(blocks));
}

// --------------------------------------------------------------------------------------
// Stages 3-5: register-blocked reduce-then-scan, after moderngpu.

/// The parallel part of stages 3 and 4 (moderngpu's CTAScan): a Hillis–Steele ladder in
/// shared memory over the NT per-thread totals, double-buffered, one barrier per step.
/// Stage 5 replaces it with common's BlockScan (warp shuffles, one barrier).
template <int NT, class Op>
struct LadderBlockScan {
  using T = typename Op::value_type;
  /// The shared memory one scan needs.
  struct Storage {
    T buffers[2][NT];
  };
  /// Returns the exclusive scan of @p total over the block's threads (identity for thread 0)
  /// and sets @p aggregate to the reduction of all NT totals. @p storage is free again on return.
  __device__ static T exclusive_scan(T total, T& aggregate, Storage& storage, Op op) {
    const int t = threadIdx.x;
    storage.buffers[0][t] = total;
    __syncthreads();
    int current = 0;
#pragma unroll
    for (int offset = 1; offset < NT; offset *= 2) {
      T value = storage.buffers[current][t];
      if (t >= offset) value = op(storage.buffers[current][t - offset], value);
      storage.buffers[current ^ 1][t] = value;
      current ^= 1;
      __syncthreads();
    }
    aggregate = storage.buffers[current][NT - 1];
    const T exclusive = t == 0 ? Op::identity() : storage.buffers[current][t - 1];
    __syncthreads();
    return exclusive;
  }
};

/// The shared memory of one register-blocked tile: the transpose buffer and the block
/// scan's storage (never live at the same time, so they share bytes).
template <int NT, int VT, class Op, class BlockScan>
union TileStorage {
  typename Op::value_type items[NT * VT];
  typename BlockScan::Storage scan;
};

/// Stages 3-5, pass 1 (upsweep): block b reduces its contiguous run of tiles and writes
/// one total. Each tile is transposed to thread order (the operator need not commute, so
/// a thread must reduce consecutive items), reduced per thread, then across the block.
/// Missing items (past n) read as the identity, which leaves every reduction unchanged.
template <int NT, int VT, class Op, class BlockScan>
__global__ void __launch_bounds__(NT) reduce_tiles(const typename Op::value_type* in, std::size_t n,
                                                   std::size_t tiles_per_block, typename Op::value_type* block_totals) {
  using T = typename Op::value_type;
  constexpr int kTileItems = NT * VT;
  const Op op;
  __shared__ TileStorage<NT, VT, Op, BlockScan> storage;
  const std::size_t tiles = (n + kTileItems - 1) / kTileItems;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * tiles_per_block;
  const std::size_t last = first + tiles_per_block < tiles ? first + tiles_per_block : tiles;
  T total = Op::identity();
  for (std::size_t tile = first; tile < last; ++tile) {
    const std::size_t base = tile * kTileItems;
    const int count = n - base < kTileItems ? static_cast<int>(n - base) : kTileItems;
    T x[VT];
    load_thread_order<NT, VT>(in, base, count, Op::identity(), x, storage.items);
    T aggregate;
    BlockScan::exclusive_scan(thread_reduce<VT>(x, op), aggregate, storage.scan, op);
    total = op(total, aggregate);
    __syncthreads();  // storage.scan aliases the next tile's items
  }
  if (threadIdx.x == 0) block_totals[blockIdx.x] = total;
}

/// Stages 3-5, pass 2 (spine): one block of NT threads scans the @p count block totals
/// in place (exclusive), NT at a time, carrying the running total between rounds.
template <int NT, class Op, class BlockScan>
__global__ void __launch_bounds__(NT) scan_spine(typename Op::value_type* totals, int count) {
  using T = typename Op::value_type;
  const Op op;
  __shared__ typename BlockScan::Storage storage;
  T carry = Op::identity();
  for (int base = 0; base < count; base += NT) {
    const int i = base + static_cast<int>(threadIdx.x);
    T aggregate;
    const T prefix = BlockScan::exclusive_scan(i < count ? totals[i] : Op::identity(), aggregate, storage, op);
    if (i < count) totals[i] = op(carry, prefix);
    carry = op(carry, aggregate);
    __syncthreads();
  }
}

/// Stages 3-5, pass 3 (downsweep): block b rescans its tiles seeded with its spine prefix:
/// load and transpose, sequential scan of VT items per thread, parallel scan of the
/// thread totals, sequential downsweep seeded with the thread's prefix, transpose back,
/// coalesced stores. The running prefix carries from tile to tile.
template <int NT, int VT, class Op, class BlockScan>
__global__ void __launch_bounds__(NT)
    scan_tiles(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
               std::size_t tiles_per_block, const typename Op::value_type* block_prefixes, bool exclusive) {
  using T = typename Op::value_type;
  constexpr int kTileItems = NT * VT;
  const Op op;
  __shared__ TileStorage<NT, VT, Op, BlockScan> storage;
  const std::size_t tiles = (n + kTileItems - 1) / kTileItems;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * tiles_per_block;
  const std::size_t last = first + tiles_per_block < tiles ? first + tiles_per_block : tiles;
  T running = block_prefixes[blockIdx.x];
  for (std::size_t tile = first; tile < last; ++tile) {
    const std::size_t base = tile * kTileItems;
    const int count = n - base < kTileItems ? static_cast<int>(n - base) : kTileItems;
    T x[VT];
    load_thread_order<NT, VT>(in, base, count, Op::identity(), x, storage.items);
    T aggregate;
    const T thread_prefix = BlockScan::exclusive_scan(thread_reduce<VT>(x, op), aggregate, storage.scan, op);
    __syncthreads();  // storage.scan aliases the items the store writes
    thread_scan<VT>(x, op(running, thread_prefix), exclusive, op);
    store_thread_order<NT, VT>(out, base, count, x, storage.items);
    running = op(running, aggregate);
  }
}

/// Stages 3-5: the three passes on a grid as large as the GPU holds at once (at most
/// kMaxReduceBlocks), each block owning a contiguous run of NT x VT tiles.
/// @tparam BlockScan the parallel scan of the thread totals: LadderBlockScan or BlockScan
template <int NT, int VT, class Op, class BlockScan>
void reduce_then_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, ScanKind kind,
                      ScanWorkspace& workspace, cudaStream_t stream) {
  using T = typename Op::value_type;
  workspace.require(n, sizeof(T));
  if (n == 0) return;
  static int resident_blocks = 0;  // per instantiation; cached so timed runs make no occupancy queries
  if (resident_blocks == 0) {
    int per_sm = 0;
    STEPWISE_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scan_tiles<NT, VT, Op, BlockScan>, NT, 0));
    resident_blocks = per_sm * current_sm_count();
  }
  constexpr int kTileItems = NT * VT;
  const std::size_t tiles = (n + kTileItems - 1) / kTileItems;
  const std::size_t max_blocks =
      static_cast<std::size_t>(resident_blocks < kMaxReduceBlocks ? resident_blocks : kMaxReduceBlocks);
  const std::size_t tiles_per_block = (tiles + max_blocks - 1) / max_blocks;
  const std::size_t blocks = (tiles + tiles_per_block - 1) / tiles_per_block;
  T* block_totals = static_cast<T*>(workspace.data());
  reduce_tiles<NT, VT, Op, BlockScan><<<grid_of(blocks), NT, 0, stream>>>(in, n, tiles_per_block, block_totals);
  STEPWISE_CHECK_LAUNCH();
  scan_spine<NT, Op, BlockScan><<<1, NT, 0, stream>>>(block_totals, static_cast<int>(blocks));
  STEPWISE_CHECK_LAUNCH();
  scan_tiles<NT, VT, Op, BlockScan>
      <<<grid_of(blocks), NT, 0, stream>>>(in, out, n, tiles_per_block, block_totals, kind == ScanKind::exclusive);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace stepwise::scan
