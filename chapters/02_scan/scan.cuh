/// @file scan.cuh
/// Device pieces several scan stages share: the scan-then-propagate recursion of stages 1-3,
/// Blelloch's tree of stages 2-3, the register-blocked reduce-then-scan of stages 4-6 (after
/// moderngpu), and the thread-order accesses of the transposes (stages 4-7).
///
/// Napkin math: a scan must read n elements and write n, so its floor is a copy's time
/// (chapter 00), and every stage here does 1-2 operations per element: each is bound by the
/// traffic it generates, or by what stops it from keeping enough bytes in flight (barriers,
/// bank conflicts, latency). The README turns these into times.
///   - Scan-then-propagate (stages 1-3): read n, write n, then read and write n again to
///     add the block prefixes back: 4n traffic, plus O(n log n) work in stage 1.
///   - Reduce-then-scan (stages 4-6): read n (upsweep), read n and write n (downsweep):
///     3n traffic. Only one total per block crosses between the passes.
///   - Single pass with decoupled look-back (stage 7): read n, write n: 2n, a copy's traffic.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "device/block.cuh"
#include "device/thread_ops.hpp"
#include "device/tile.cuh"
#include "host/check.hpp"
#include "host/device.hpp"
#include "host/launch.hpp"
#include "scan.hpp"
#include "tree_layout.hpp"

namespace stepwise::scan {

// --------------------------------------------------------------------------------------
// Stages 1-3: scan each block, scan the block totals recursively, add them back.

/// Stages 1-3, the propagation pass: every element of block b (ITEMS per block) gets
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

/// Stages 1-3: scan each block of ITEMS elements with @p block_scan, scan the block
/// totals by the same method (recursively, until one block holds them all), and add them
/// back with @p add_prefixes. Levels of totals are stacked from @p totals (the workspace);
/// every level is enqueued without a host sync.
/// @param in the n elements to scan
/// @param out the n results
/// @param n the number of elements
/// @param exclusive an exclusive scan when true, an inclusive one when false
/// @param totals the workspace that holds every level's block totals
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
// Stages 2-3: Blelloch's work-efficient tree.

/// Stages 2 and 3: one block of NT threads scans 2*NT elements with Blelloch's tree, in place
/// in shared memory: an up-sweep builds partial reductions (2*NT - 1 operations, each level
/// keeping the right child: right = left op right), the root is replaced by the identity, and
/// a down-sweep pushes prefixes back down (another 2*NT - 1: the left child gets its parent's
/// prefix, the right child the parent's prefix op the left subtree). The level of stride s
/// takes one barrier and NT/s threads (tree_layout.hpp's maps): 2*log2(2*NT) levels in all,
/// most of them with few threads at work. Node i lives at tree::node_slot(i, kPadded): with
/// kPadded (stage 3), one word of padding after every 32 nodes makes every level
/// conflict-free. Writes the exclusive or inclusive scan of its elements and, if
/// @p block_totals is not null, the block's total.
template <int NT, bool kPadded, class Op>
__global__ void __launch_bounds__(NT)
    blelloch_block_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                        typename Op::value_type* block_totals, bool exclusive) {
  using T = typename Op::value_type;
  static_assert((NT & (NT - 1)) == 0 && NT >= 32 && NT <= 1024, "the tree needs a power-of-two NT");
  constexpr int kItems = 2 * NT;
  const Op op;
  __shared__ T tree_nodes[tree::tree_words(kItems, kPadded)];
  const auto node = [](int i) -> int { return tree::node_slot(i, kPadded); };
  const int t = threadIdx.x;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kItems;
  const T low = base + t < n ? in[base + t] : Op::identity();
  const T high = base + t + NT < n ? in[base + t + NT] : Op::identity();
  tree_nodes[node(t)] = low;
  tree_nodes[node(t + NT)] = high;

  int stride = 1;
  for (int active = NT; active > 0; active /= 2) {  // up-sweep
    __syncthreads();
    if (t < active) {
      const int left = node(tree::left_child(stride, t));
      const int right = node(tree::right_child(stride, t));
      tree_nodes[right] = op(tree_nodes[left], tree_nodes[right]);
    }
    stride *= 2;
  }
  if (t == 0) {
    if (block_totals != nullptr) block_totals[blockIdx.x] = tree_nodes[node(kItems - 1)];
    tree_nodes[node(kItems - 1)] = Op::identity();
  }
  for (int active = 1; active <= NT; active *= 2) {  // down-sweep
    stride /= 2;
    __syncthreads();
    if (t < active) {
      const int left = node(tree::left_child(stride, t));
      const int right = node(tree::right_child(stride, t));
      const T left_total = tree_nodes[left];
      tree_nodes[left] = tree_nodes[right];
      tree_nodes[right] = op(tree_nodes[right], left_total);
    }
  }
  __syncthreads();
  if (base + t < n) out[base + t] = exclusive ? tree_nodes[node(t)] : op(tree_nodes[node(t)], low);
  if (base + t + NT < n) out[base + t + NT] = exclusive ? tree_nodes[node(t + NT)] : op(tree_nodes[node(t + NT)], high);
}

/// Stages 2 and 3: Blelloch's block scan (padded or not) under scan_then_propagate.
template <bool kPadded, class Op>
void blelloch_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                   const ScanOptions& options, ScanWorkspace& workspace, const LaunchShape& shape,
                   cudaStream_t stream) {
  using T = typename Op::value_type;
  constexpr int NT = tree::kThreads;
  require_shape(shape, LaunchShape{NT});
  workspace.require(n, sizeof(T));
  scan_then_propagate<Op, 2 * NT>(
      in, out, n, options.kind == ScanKind::exclusive, static_cast<T*>(workspace.data()),
      [stream](const T* from, T* to, std::size_t count, T* totals, bool exclusive, unsigned grid) {
        blelloch_block_scan<NT, kPadded, Op><<<grid, NT, 0, stream>>>(from, to, count, totals, exclusive);
        STEPWISE_CHECK_LAUNCH();
      },
      [stream](T* to, std::size_t count, const T* prefixes, unsigned grid) {
        add_block_prefixes<NT, 2 * NT, Op><<<grid, NT, 0, stream>>>(to, count, prefixes);
        STEPWISE_CHECK_LAUNCH();
      });
}

// --------------------------------------------------------------------------------------
// The thread-order side of the transposes (stages 4-7).

/// How a thread reads and writes its VT consecutive values in shared memory.
enum class ThreadOrderAccess {
  /// As written, x[i] = shared[t*VT + i]: the compiler may merge a thread's consecutive words
  /// into 64- or 128-bit accesses where it can prove their alignment (the README shows where
  /// it does). The default, and common/device/tile.cuh's transposes.
  compiler,
  /// One 32-bit access per word, through a volatile pointer, which the compiler may not merge:
  /// Baxter's model, in which VT = 8 is 8-way conflicted (--scalar-transpose, stages 4-6).
  scalar,
  /// 128-bit accesses (uint4), for 4-byte values and VT % 4 == 0, whatever the compiler would
  /// have chosen; the buffer must be 16-byte aligned (--vector-transpose, stage 7).
  vector,
};

/// Reads the @p VT values of one thread, which start at @p values in shared memory, into @p x.
template <ThreadOrderAccess Access, int VT, class T>
__device__ __forceinline__ void read_thread_values(const T* values, T (&x)[VT]) {
  if constexpr (Access == ThreadOrderAccess::scalar) {
    static_assert(sizeof(T) % 4 == 0, "scalar access reads whole 32-bit words");
    constexpr int kWords = sizeof(T) / 4;
    const volatile std::uint32_t* words = reinterpret_cast<const volatile std::uint32_t*>(values);
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      std::uint32_t bits[kWords];
#pragma unroll
      for (int k = 0; k < kWords; ++k) bits[k] = words[i * kWords + k];
      memcpy(&x[i], bits, sizeof(T));
    }
  } else if constexpr (Access == ThreadOrderAccess::vector) {
    static_assert(sizeof(T) == 4 && VT % 4 == 0, "128-bit access: 4-byte values, VT a multiple of 4");
    const uint4* vectors = reinterpret_cast<const uint4*>(values);
#pragma unroll
    for (int j = 0; j < VT / 4; ++j) {
      const uint4 vector = vectors[j];
      memcpy(&x[4 * j], &vector, sizeof vector);
    }
  } else {
#pragma unroll
    for (int i = 0; i < VT; ++i) x[i] = values[i];
  }
}

/// Writes @p x, the @p VT values of one thread, to @p values in shared memory.
template <ThreadOrderAccess Access, int VT, class T>
__device__ __forceinline__ void write_thread_values(T* values, const T (&x)[VT]) {
  if constexpr (Access == ThreadOrderAccess::scalar) {
    static_assert(sizeof(T) % 4 == 0, "scalar access writes whole 32-bit words");
    constexpr int kWords = sizeof(T) / 4;
    volatile std::uint32_t* words = reinterpret_cast<volatile std::uint32_t*>(values);
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      std::uint32_t bits[kWords];
      memcpy(bits, &x[i], sizeof(T));
#pragma unroll
      for (int k = 0; k < kWords; ++k) words[i * kWords + k] = bits[k];
    }
  } else if constexpr (Access == ThreadOrderAccess::vector) {
    static_assert(sizeof(T) == 4 && VT % 4 == 0, "128-bit access: 4-byte values, VT a multiple of 4");
    uint4* vectors = reinterpret_cast<uint4*>(values);
#pragma unroll
    for (int j = 0; j < VT / 4; ++j) {
      uint4 vector;
      memcpy(&vector, &x[4 * j], sizeof vector);
      vectors[j] = vector;
    }
  } else {
#pragma unroll
    for (int i = 0; i < VT; ++i) values[i] = x[i];
  }
}

/// common's load_thread_order (tile.cuh) with its thread-order side read with @p Access:
/// strided, coalesced loads, stored to @p shared at the same positions, read back in thread
/// order. Access == compiler is load_thread_order itself.
template <ThreadOrderAccess Access, int NT, int VT, class T>
__device__ __forceinline__ void load_tile(const T* in, std::size_t base, int count, T fill, T (&x)[VT], T* shared) {
  if constexpr (Access == ThreadOrderAccess::compiler) {
    load_thread_order<NT, VT>(in, base, count, fill, x, shared);
  } else {
    load_strided<NT, VT>(in, base, count, fill, x);
    store_strided_shared<NT, VT>(x, shared);
    read_thread_values<Access>(shared + tile::thread_order_slot(threadIdx.x, 0, VT), x);
    __syncthreads();
  }
}

/// common's store_thread_order with its thread-order side written with @p Access.
template <ThreadOrderAccess Access, int NT, int VT, class T>
__device__ __forceinline__ void store_tile(T* out, std::size_t base, int count, const T (&x)[VT], T* shared) {
  if constexpr (Access == ThreadOrderAccess::compiler) {
    store_thread_order<NT, VT>(out, base, count, x, shared);
  } else {
    write_thread_values<Access>(shared + tile::thread_order_slot(threadIdx.x, 0, VT), x);
    __syncthreads();
    store_strided_from_shared<NT, VT>(out, base, count, shared);
  }
}

// --------------------------------------------------------------------------------------
// Stages 4-6: register-blocked reduce-then-scan, after moderngpu.

/// The parallel part of stages 4 and 5 (moderngpu's CTAScan): a Hillis–Steele ladder in
/// shared memory over the NT per-thread totals, double-buffered, one barrier per step.
/// Stage 6 replaces it with common's BlockScan (warp shuffles, one barrier).
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

/// Stages 4-6, pass 1 (upsweep): block b reduces its contiguous run of tiles and writes
/// one total. Each tile is transposed to thread order (the operator need not commute, so
/// a thread must reduce consecutive items), reduced per thread, then across the block.
/// Missing items (past n) read as the identity, which leaves every reduction unchanged.
template <int NT, int VT, class Op, class BlockScan, ThreadOrderAccess Access>
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
    load_tile<Access, NT, VT>(in, base, count, Op::identity(), x, storage.items);
    T aggregate;
    BlockScan::exclusive_scan(thread_reduce<VT>(x, op), aggregate, storage.scan, op);
    total = op(total, aggregate);
    __syncthreads();  // storage.scan aliases the next tile's items
  }
  if (threadIdx.x == 0) block_totals[blockIdx.x] = total;
}

/// Stages 4-6, pass 2 (spine): one block of NT threads scans the @p count block totals
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

/// Stages 4-6, pass 3 (downsweep): block b rescans its tiles seeded with its spine prefix:
/// load and transpose, sequential scan of VT items per thread, parallel scan of the
/// thread totals, sequential downsweep seeded with the thread's prefix, transpose back,
/// coalesced stores. The running prefix carries from tile to tile.
template <int NT, int VT, class Op, class BlockScan, ThreadOrderAccess Access>
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
    load_tile<Access, NT, VT>(in, base, count, Op::identity(), x, storage.items);
    T aggregate;
    const T thread_prefix = BlockScan::exclusive_scan(thread_reduce<VT>(x, op), aggregate, storage.scan, op);
    __syncthreads();  // storage.scan aliases the items the store writes
    thread_scan<VT>(x, op(running, thread_prefix), exclusive, op);
    store_tile<Access, NT, VT>(out, base, count, x, storage.items);
    running = op(running, aggregate);
  }
}

/// Stages 4-6: the three passes on a grid as large as the GPU holds at once (at most
/// kMaxReduceBlocks), each block owning a contiguous run of NT x VT tiles.
/// @tparam BlockScan the parallel scan of the thread totals: LadderBlockScan or BlockScan
/// @tparam Access how the transposes' thread-order side touches shared memory
template <int NT, int VT, class Op, class BlockScan, ThreadOrderAccess Access>
void reduce_then_scan_with(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                           ScanKind kind, ScanWorkspace& workspace, cudaStream_t stream) {
  using T = typename Op::value_type;
  workspace.require(n, sizeof(T));
  if (n == 0) return;
  static int resident_blocks = 0;  // per instantiation; cached so timed runs make no occupancy queries
  if (resident_blocks == 0) {
    int per_sm = 0;
    STEPWISE_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scan_tiles<NT, VT, Op, BlockScan, Access>, NT, 0));
    resident_blocks = per_sm * current_sm_count();
  }
  constexpr int kTileItems = NT * VT;
  const std::size_t tiles = (n + kTileItems - 1) / kTileItems;
  const std::size_t max_blocks =
      static_cast<std::size_t>(resident_blocks < kMaxReduceBlocks ? resident_blocks : kMaxReduceBlocks);
  const std::size_t tiles_per_block = (tiles + max_blocks - 1) / max_blocks;
  const std::size_t blocks = (tiles + tiles_per_block - 1) / tiles_per_block;
  T* block_totals = static_cast<T*>(workspace.data());
  reduce_tiles<NT, VT, Op, BlockScan, Access><<<grid_of(blocks), NT, 0, stream>>>(in, n, tiles_per_block, block_totals);
  STEPWISE_CHECK_LAUNCH();
  scan_spine<NT, Op, BlockScan><<<1, NT, 0, stream>>>(block_totals, static_cast<int>(blocks));
  STEPWISE_CHECK_LAUNCH();
  scan_tiles<NT, VT, Op, BlockScan, Access>
      <<<grid_of(blocks), NT, 0, stream>>>(in, out, n, tiles_per_block, block_totals, kind == ScanKind::exclusive);
  STEPWISE_CHECK_LAUNCH();
}

/// Stages 4-6: reduce_then_scan_with the compiler's accesses, or 32-bit ones with
/// options.scalar_transpose.
template <int NT, int VT, class Op, class BlockScan>
void reduce_then_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                      const ScanOptions& options, ScanWorkspace& workspace, cudaStream_t stream) {
  if (options.scalar_transpose)
    reduce_then_scan_with<NT, VT, Op, BlockScan, ThreadOrderAccess::scalar>(in, out, n, options.kind, workspace,
                                                                            stream);
  else
    reduce_then_scan_with<NT, VT, Op, BlockScan, ThreadOrderAccess::compiler>(in, out, n, options.kind, workspace,
                                                                              stream);
}

}  // namespace stepwise::scan
