/// @file scan_kernels.cuh
/// The scan kernels of chapter 02 and the block and warp primitives they are built from.
///
/// Napkin math (H100 SXM, HBM3, 3.35 TB/s peak, about 2.9-3.0 TB/s for cudaMemcpy):
/// a scan must read n elements and write n, so 2^28 int32 is 2 x 1 GiB = 2.15 GB and the
/// floor is 2.15 GB / 2.95 TB/s = 0.73 ms (CUB: 0.896 ms, 2.4 TB/s).
///   - Scan-then-propagate (stages 1, 2): read n, write n, then read and write n again to
///     add the block prefixes back: 4n traffic, >= 1.5 ms, plus O(n log n) work in stage 1.
///   - Reduce-then-scan (stages 3-5): read n (upsweep), read n and write n (downsweep):
///     3n traffic, >= 1.1 ms. Only one total per block crosses between the passes.
///   - Single pass with decoupled look-back (stage 6): read n, write n: 2n, the copy's 0.73 ms.
/// (On the H200 of the README's tables: 4.8 TB/s peak, 4.2 TB/s memcpy, floor 0.51 ms;
/// CUB 0.70 ms.)
/// Arithmetic is 1-2 adds per element: every stage is bound by memory traffic, or by
/// whatever stops it from keeping enough bytes in flight (barriers, bank conflicts, latency).
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "scan_ops.hpp"

namespace stepwise::scan::kernels {

constexpr unsigned kFullWarp = 0xffffffffu;

// --------------------------------------------------------------------------------------
// Warp shuffles of any 4k-byte value (Affine is two words).

template <class T>
struct ShuffleWords {
  static_assert(sizeof(T) % 4 == 0, "shuffled values must be a whole number of 32-bit words");
  static constexpr int kWords = sizeof(T) / 4;
};

/// __shfl_up_sync of a value of any 4k-byte trivially copyable type, word by word.
template <class T>
__device__ __forceinline__ T shuffle_up(T value, unsigned delta) {
  std::uint32_t words[ShuffleWords<T>::kWords];
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < ShuffleWords<T>::kWords; ++w) words[w] = __shfl_up_sync(kFullWarp, words[w], delta);
  memcpy(&value, words, sizeof(T));
  return value;
}

/// __shfl_down_sync, word by word.
template <class T>
__device__ __forceinline__ T shuffle_down(T value, unsigned delta) {
  std::uint32_t words[ShuffleWords<T>::kWords];
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < ShuffleWords<T>::kWords; ++w) words[w] = __shfl_down_sync(kFullWarp, words[w], delta);
  memcpy(&value, words, sizeof(T));
  return value;
}

/// __shfl_sync (broadcast from @p source_lane), word by word.
template <class T>
__device__ __forceinline__ T shuffle_index(T value, int source_lane) {
  std::uint32_t words[ShuffleWords<T>::kWords];
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < ShuffleWords<T>::kWords; ++w) words[w] = __shfl_sync(kFullWarp, words[w], source_lane);
  memcpy(&value, words, sizeof(T));
  return value;
}

/// Inclusive scan across the 32 lanes of a full, converged warp (Kogge–Stone by shuffles):
/// lane l returns x[0] op ... op x[l]. The value from the lower lane is the left operand.
template <class Op>
__device__ __forceinline__ typename Op::value_type warp_inclusive_scan(typename Op::value_type value, Op op) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const typename Op::value_type lower = shuffle_up(value, offset);
    if (lane >= offset) value = op(lower, value);
  }
  return value;
}

// --------------------------------------------------------------------------------------
// Stage 1: Hillis–Steele.

/// Stage 1, one block scans NT consecutive elements, one per thread, with the Hillis–Steele
/// ladder: log2(NT) steps, at step d every thread adds the value 2^d places to its left.
/// NT log NT operations for NT elements, a barrier per step. The classic slide updates one
/// array in place (x[t] += x[t - d]) and races: a thread can read its neighbour after the
/// neighbour has already added. Here each step reads one buffer and writes the other.
/// Writes the exclusive or inclusive scan of its elements and, if @p block_totals is not
/// null, the block's total.
template <int NT, class Op>
__global__ void __launch_bounds__(NT)
    hillis_steele_block_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                             typename Op::value_type* block_totals, bool exclusive) {
  using T = typename Op::value_type;
  static_assert(NT % 32 == 0 && NT <= 1024, "NT must be a multiple of 32, at most 1024");
  const Op op;
  __shared__ T buffers[2][NT];
  const int t = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * NT + t;
  buffers[0][t] = i < n ? in[i] : Op::identity();
  __syncthreads();
  int current = 0;
  for (int offset = 1; offset < NT; offset *= 2) {
    T value = buffers[current][t];
    if (t >= offset) value = op(buffers[current][t - offset], value);
    buffers[current ^ 1][t] = value;
    current ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = exclusive ? (t == 0 ? Op::identity() : buffers[current][t - 1]) : buffers[current][t];
  if (block_totals != nullptr && t == NT - 1) block_totals[blockIdx.x] = buffers[current][NT - 1];
}

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

// --------------------------------------------------------------------------------------
// Stage 2: Blelloch.

/// Stage 2, one block of NT threads scans 2*NT elements with Blelloch's work-efficient
/// tree: an up-sweep builds partial sums in place (2*NT - 1 operations), the root is
/// replaced by the identity, and a down-sweep pushes prefixes back down (another 2*NT - 1):
/// O(n) work where stage 1 does O(n log n), and each thread owns two elements, so the
/// same data needs half the blocks. The tree leaves threads idle near the root and its
/// strided indices conflict in shared memory: the next stages drop the tree altogether.
template <int NT, class Op>
__global__ void __launch_bounds__(NT)
    blelloch_block_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                        typename Op::value_type* block_totals, bool exclusive) {
  using T = typename Op::value_type;
  static_assert((NT & (NT - 1)) == 0 && NT >= 32 && NT <= 1024, "the tree needs a power-of-two NT");
  constexpr int kItems = 2 * NT;
  const Op op;
  __shared__ T tree[kItems];
  const int t = threadIdx.x;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kItems;
  const T low = base + t < n ? in[base + t] : Op::identity();
  const T high = base + t + NT < n ? in[base + t + NT] : Op::identity();
  tree[t] = low;
  tree[t + NT] = high;

  int stride = 1;
  for (int active = NT; active > 0; active /= 2) {  // up-sweep: right child = left op right
    __syncthreads();
    if (t < active) {
      const int right = stride * (2 * t + 2) - 1;
      tree[right] = op(tree[right - stride], tree[right]);
    }
    stride *= 2;
  }
  if (t == 0) {
    if (block_totals != nullptr) block_totals[blockIdx.x] = tree[kItems - 1];
    tree[kItems - 1] = Op::identity();
  }
  for (int active = 1; active <= NT; active *= 2) {  // down-sweep: left gets the parent's prefix,
    stride /= 2;                                     // right gets parent prefix op left subtree
    __syncthreads();
    if (t < active) {
      const int right = stride * (2 * t + 2) - 1;
      const T left_total = tree[right - stride];
      tree[right - stride] = tree[right];
      tree[right] = op(tree[right], left_total);
    }
  }
  __syncthreads();
  if (base + t < n) out[base + t] = exclusive ? tree[t] : op(tree[t], low);
  if (base + t + NT < n) out[base + t + NT] = exclusive ? tree[t + NT] : op(tree[t + NT], high);
}

// --------------------------------------------------------------------------------------
// Register-blocked tiles (stages 3-6), after moderngpu.

/// The parallel part of stages 3 and 4 (moderngpu's CTAScan): a Hillis–Steele ladder in
/// shared memory over the NT per-thread totals, double-buffered, one barrier per step.
template <int NT, class Op>
struct LadderBlockScan {
  using T = typename Op::value_type;
  struct Storage {
    T buffers[2][NT];
  };
  /// Returns the exclusive scan of @p total over the block's threads (identity for thread 0)
  /// and sets @p aggregate to the reduction of all NT totals. Storage is free again on return.
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

/// The parallel part of stages 5 and 6: each warp scans its 32 totals with shuffles
/// (registers, no barrier), lane 31 posts the warp's total, and after one barrier every
/// thread folds in the totals of the warps before it (at most 8 broadcast reads).
template <int NT, class Op>
struct ShuffleBlockScan {
  using T = typename Op::value_type;
  static constexpr int kWarps = NT / 32;
  static_assert(NT % 32 == 0 && kWarps <= 32, "NT must be a multiple of 32, at most 1024");
  struct Storage {
    T warp_totals[kWarps];
  };
  /// As LadderBlockScan::exclusive_scan. Storage may be rewritten only after the caller's
  /// next __syncthreads.
  __device__ static T exclusive_scan(T total, T& aggregate, Storage& storage, Op op) {
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const T inclusive = warp_inclusive_scan(total, op);
    if (lane == 31) storage.warp_totals[warp] = inclusive;
    __syncthreads();
    T warp_prefix = Op::identity();
    T running = Op::identity();
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      if (w == warp) warp_prefix = running;
      running = op(running, storage.warp_totals[w]);
    }
    aggregate = running;
    T lane_prefix = shuffle_up(inclusive, 1);
    if (lane == 0) lane_prefix = Op::identity();
    return op(warp_prefix, lane_prefix);
  }
};

/// Loads the tile of @p count (<= NT*VT) items at @p base into registers in thread order:
/// afterwards thread t holds items t*VT .. t*VT + VT-1. Global loads are strided (item
/// i*NT + t at step i: each warp-wide load is one coalesced line); the transpose goes
/// through @p shared, where thread t reads words t*VT + i. Those words fall in banks
/// (t*VT + i) % 32: for even VT, lanes 32/gcd(VT,32) apart collide (VT = 8: 8-way);
/// for odd VT every bank is hit once per warp per step (see bank_conflicts.hpp).
/// Missing items (past n) read as the identity, which leaves every scan unchanged.
template <int NT, int VT, class T>
__device__ __forceinline__ void load_thread_order(const T* in, std::size_t base, int count, T identity, T (&x)[VT],
                                                  T* shared) {
  const int t = threadIdx.x;
  if (count == NT * VT) {
#pragma unroll
    for (int i = 0; i < VT; ++i) x[i] = in[base + i * NT + t];
  } else {
#pragma unroll
    for (int i = 0; i < VT; ++i) x[i] = i * NT + t < count ? in[base + i * NT + t] : identity;
  }
#pragma unroll
  for (int i = 0; i < VT; ++i) shared[i * NT + t] = x[i];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < VT; ++i) x[i] = shared[t * VT + i];
  __syncthreads();
}

/// The inverse of load_thread_order: thread-order registers to shared memory (the same
/// banks, the same conflicts), then strided, coalesced stores of the first @p count items.
template <int NT, int VT, class T>
__device__ __forceinline__ void store_thread_order(T* out, std::size_t base, int count, const T (&x)[VT], T* shared) {
  const int t = threadIdx.x;
#pragma unroll
  for (int i = 0; i < VT; ++i) shared[t * VT + i] = x[i];
  __syncthreads();
  if (count == NT * VT) {
#pragma unroll
    for (int i = 0; i < VT; ++i) out[base + i * NT + t] = shared[i * NT + t];
  } else {
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (i * NT + t < count) out[base + i * NT + t] = shared[i * NT + t];
  }
  __syncthreads();
}

/// Stage 6's transpose, within each warp: warp w owns the 32*VT consecutive items from
/// w*32*VT, loads them warp-strided (item i*32 + lane at step i, one coalesced line per
/// load), and transposes them through its own slice of shared memory. Thread t ends with
/// items t*VT .. t*VT + VT-1 of the tile, exactly as load_thread_order leaves them, and
/// reads words lane*VT + i of its slice: the same banks, so odd VT is still conflict-free.
/// No warp reads another's slice, so __syncwarp replaces both block barriers.
template <int NT, int VT, class T>
__device__ __forceinline__ void load_warp_striped(const T* in, std::size_t base, int count, T identity, T (&x)[VT]) {
  const int lane = threadIdx.x % 32;
  const int first = (threadIdx.x / 32) * 32 * VT;  // the warp's first item in the tile
  if (count == NT * VT) {
#pragma unroll
    for (int i = 0; i < VT; ++i) x[i] = in[base + first + i * 32 + lane];
  } else {
#pragma unroll
    for (int i = 0; i < VT; ++i) x[i] = first + i * 32 + lane < count ? in[base + first + i * 32 + lane] : identity;
  }
}

/// The second half of load_thread_order_by_warp: warp-striped registers to thread order
/// through the warp's own slice of @p shared.
template <int NT, int VT, class T>
__device__ __forceinline__ void warp_striped_to_thread_order(T (&x)[VT], T* shared) {
  const int lane = threadIdx.x % 32;
  T* slice = shared + (threadIdx.x / 32) * 32 * VT;
#pragma unroll
  for (int i = 0; i < VT; ++i) slice[i * 32 + lane] = x[i];
  __syncwarp();
#pragma unroll
  for (int i = 0; i < VT; ++i) x[i] = slice[lane * VT + i];
  __syncwarp();
}

template <int NT, int VT, class T>
__device__ __forceinline__ void load_thread_order_by_warp(const T* in, std::size_t base, int count, T identity,
                                                          T (&x)[VT], T* shared) {
  load_warp_striped<NT, VT>(in, base, count, identity, x);
  warp_striped_to_thread_order<NT, VT>(x, shared);
}

/// The inverse of load_thread_order_by_warp: through the warp's slice, then warp-strided stores.
template <int NT, int VT, class T>
__device__ __forceinline__ void store_thread_order_by_warp(T* out, std::size_t base, int count, const T (&x)[VT],
                                                           T* shared) {
  const int lane = threadIdx.x % 32;
  const int first = (threadIdx.x / 32) * 32 * VT;
  T* slice = shared + first;
#pragma unroll
  for (int i = 0; i < VT; ++i) slice[lane * VT + i] = x[i];
  __syncwarp();
  if (count == NT * VT) {
#pragma unroll
    for (int i = 0; i < VT; ++i) out[base + first + i * 32 + lane] = slice[i * 32 + lane];
  } else {
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (first + i * 32 + lane < count) out[base + first + i * 32 + lane] = slice[i * 32 + lane];
  }
  __syncwarp();
}

/// A thread's VT values reduced in order.
template <int VT, class Op>
__device__ __forceinline__ typename Op::value_type thread_reduce(const typename Op::value_type (&x)[VT], Op op) {
  typename Op::value_type total = x[0];
#pragma unroll
  for (int i = 1; i < VT; ++i) total = op(total, x[i]);
  return total;
}

/// A thread's VT values scanned in place, sequentially, seeded with @p prefix.
template <int VT, class Op>
__device__ __forceinline__ void thread_scan(typename Op::value_type (&x)[VT], typename Op::value_type prefix,
                                            bool exclusive, Op op) {
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const typename Op::value_type next = op(prefix, x[i]);
    x[i] = exclusive ? prefix : next;
    prefix = next;
  }
}

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

// --------------------------------------------------------------------------------------
// Stage 6: single pass with decoupled look-back (Merrill & Garland, 2016).

/// What a tile has published: nothing yet, its own aggregate, or its inclusive prefix
/// (the reduction of every element up to and including the tile).
enum TileFlag : std::uint32_t { kTileInvalid = 0, kTileAggregate = 1, kTileInclusive = 2 };

/// Tile status for 4-byte values: flag and value packed in one 64-bit word, written and
/// read with single 64-bit relaxed atomics. A reader sees either the old word or the new
/// one, never a flag without its value, so no fence is needed: the reader uses nothing
/// but the value inside the word it read.
template <class T>
struct PackedTileStatus {
  static_assert(sizeof(T) == 4, "packed status holds a 4-byte value");
  unsigned long long* words;

  __device__ void publish(std::size_t tile, TileFlag flag, T value) const {
    std::uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    const unsigned long long word = (static_cast<unsigned long long>(bits) << 32) | flag;
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile])
        .store(word, cuda::memory_order_relaxed);
  }
  __device__ TileFlag read(std::size_t tile, T& value) const {
    const unsigned long long word =
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile]).load(cuda::memory_order_relaxed);
    const std::uint32_t bits = static_cast<std::uint32_t>(word >> 32);
    memcpy(&value, &bits, sizeof bits);
    return static_cast<TileFlag>(word & 0xffffffffu);
  }
};

/// Tile status for wider values (Affine): a separate flag, with release/acquire ordering.
/// The writer stores the value, then the flag with memory_order_release (device scope);
/// a reader loads the flag with memory_order_acquire and only then the value: seeing the
/// flag guarantees seeing the value written before it. Aggregate and inclusive prefix
/// live in separate arrays so that upgrading the flag never overwrites a value a reader
/// may be loading.
template <class T>
struct FlaggedTileStatus {
  std::uint32_t* flags;
  T* aggregates;
  T* inclusives;

  __device__ void publish(std::size_t tile, TileFlag flag, T value) const {
    (flag == kTileAggregate ? aggregates : inclusives)[tile] = value;
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(flags[tile]).store(flag, cuda::memory_order_release);
  }
  __device__ TileFlag read(std::size_t tile, T& value) const {
    const auto flag = static_cast<TileFlag>(
        cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(flags[tile]).load(cuda::memory_order_acquire));
    if (flag == kTileAggregate) value = aggregates[tile];
    if (flag == kTileInclusive) value = inclusives[tile];
    return flag;
  }
};

/// Reduces one value per lane in tile order when lane l holds the tile l places further
/// back: higher lanes are earlier tiles, so they are the left operands. Returns the
/// reduction (lane 31's value first) in every lane.
template <class Op>
__device__ __forceinline__ typename Op::value_type warp_reduce_backwards(typename Op::value_type value, Op op) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const typename Op::value_type earlier = shuffle_down(value, offset);
    if (lane + offset < 32) value = op(earlier, value);
  }
  return shuffle_index(value, 0);
}

/// The look-back, by one whole warp: lane l inspects tile (window_end - 1 - l), 32
/// predecessors at a time. Once every lane sees a published status, the nearest tile with
/// an inclusive prefix ends the search: that prefix and the aggregates of the tiles after
/// it (nearer to us) reduce to our exclusive prefix. A window of aggregates only is folded
/// in and the window moves 32 tiles back. Predecessors before tile 0 read as the identity.
/// Every predecessor publishes its aggregate without waiting for anyone, and holds a
/// smaller ticket, so it is already running: the spin always ends.
/// While any lane still sees a predecessor that has published nothing, the warp sleeps
/// for @p backoff_ns (doubling up to 8x) before polling again, as CUB's tuned policies do:
/// the statuses of neighbouring tiles share cache lines, and a warp that polls without
/// pause keeps the L2 slice that holds them busy while the predecessor tries to write its
/// own status there. @p backoff_ns = 0 spins without pause.
template <class Op, class Status>
__device__ typename Op::value_type look_back(const Status& status, std::size_t tile, Op op, unsigned backoff_ns) {
  using T = typename Op::value_type;
  const int lane = threadIdx.x % 32;
  T prefix = Op::identity();  // the tiles between the window and us, already folded
  long long window_end = static_cast<long long>(tile);
  for (;;) {
    const long long predecessor = window_end - 1 - lane;
    T value = Op::identity();
    TileFlag flag = kTileInclusive;
    unsigned delay_ns = backoff_ns;
    for (;;) {
      if (predecessor >= 0) flag = status.read(static_cast<std::size_t>(predecessor), value);
      if (!__any_sync(kFullWarp, flag == kTileInvalid)) break;
      if (delay_ns != 0) {
        __nanosleep(delay_ns);
        delay_ns = delay_ns < 8 * backoff_ns ? 2 * delay_ns : delay_ns;
      }
    }
    const unsigned inclusive_lanes = __ballot_sync(kFullWarp, flag == kTileInclusive);
    const int nearest_inclusive = inclusive_lanes != 0 ? __ffs(inclusive_lanes) - 1 : 31;
    const T window = warp_reduce_backwards(lane <= nearest_inclusive ? value : Op::identity(), op);
    prefix = op(window, prefix);
    if (inclusive_lanes != 0) return prefix;
    window_end -= 32;
  }
}

/// Stage 6: one pass, one tile per block. Tiles are numbered by an atomic ticket, not
/// blockIdx: the hardware may start blocks in any order, and a block spinning on a
/// predecessor that has not started would wait forever; a ticket is only drawn by a
/// running block, so every smaller ticket belongs to a block that is already running.
/// The tile is loaded and transposed within each warp (no block barrier), reduced (as in
/// stage 5), its aggregate published at once, and warp 0 looks back for the exclusive
/// prefix while the other warps wait at the barrier; the inclusive prefix is then
/// published for the tiles behind, and the tile is scanned and stored.
/// Each element is read once and written once: 2n traffic.
/// (A persistent grid that draws the next tile's ticket while working on the current one
/// measured 1.5x slower on an H200: a drawn ticket whose tile is not yet loaded publishes
/// nothing, and every later tile's look-back spins on it. A ticket must be drawn just
/// before its tile's loads. With @p speculative, the loads of the likely tile go out
/// together with the ticket's atomic instead of after it.)
template <int NT, int VT, class Op, class Status>
__global__ void __launch_bounds__(NT)
    single_pass_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                     unsigned* ticket_counter, Status status, bool exclusive, unsigned backoff_ns, bool speculative,
                     unsigned guess_shift) {
  using T = typename Op::value_type;
  using BlockScan = ShuffleBlockScan<NT, Op>;
  constexpr int kTileItems = NT * VT;
  static_assert(VT >= 1 && VT <= 32, "VT must be in [1, 32]");
  const Op op;
  __shared__ T items[kTileItems];
  __shared__ typename BlockScan::Storage scan_storage;  // not aliased: warps leave their transposes at different times
  __shared__ unsigned ticket;
  __shared__ T tile_prefix;
  const auto tile_count = [n](std::size_t base) {
    return n - base < kTileItems ? static_cast<int>(n - base) : kTileItems;
  };
  unsigned drawn = 0;
  if (threadIdx.x == 0) drawn = atomicAdd(ticket_counter, 1u);
  // While the ticket's round trip to L2 is in flight, load the tile this block will most
  // likely draw: blocks start in blockIdx order almost always, so ticket == blockIdx.x is
  // the usual case. The tile number is still the ticket; a wrong guess only costs a reload.
  // (guess_shift = 1 makes every guess wrong: the tests use it to run the reload path.)
  T x[VT];
  const std::size_t guess = (blockIdx.x + guess_shift) % gridDim.x;
  if (speculative) load_warp_striped<NT, VT>(in, guess * kTileItems, tile_count(guess * kTileItems), Op::identity(), x);
  if (threadIdx.x == 0) ticket = drawn;
  __syncthreads();
  const std::size_t tile = ticket;
  const std::size_t base = tile * kTileItems;
  const int count = tile_count(base);
  if (!speculative || tile != guess) load_warp_striped<NT, VT>(in, base, count, Op::identity(), x);
  warp_striped_to_thread_order<NT, VT>(x, items);
  T aggregate;
  const T thread_prefix = BlockScan::exclusive_scan(thread_reduce<VT>(x, op), aggregate, scan_storage, op);

  T prefix = Op::identity();
  if (tile == 0) {
    if (threadIdx.x == 0) status.publish(0, kTileInclusive, aggregate);
  } else {
    if (threadIdx.x == 0) status.publish(tile, kTileAggregate, aggregate);
    if (threadIdx.x < 32) {
      const T exclusive_prefix = look_back(status, tile, op, backoff_ns);
      if (threadIdx.x == 0) {
        status.publish(tile, kTileInclusive, op(exclusive_prefix, aggregate));
        tile_prefix = exclusive_prefix;
      }
    }
    __syncthreads();
    prefix = tile_prefix;
  }
  thread_scan<VT>(x, op(prefix, thread_prefix), exclusive, op);
  store_thread_order_by_warp<NT, VT>(out, base, count, x, items);
}

}  // namespace stepwise::scan::kernels
