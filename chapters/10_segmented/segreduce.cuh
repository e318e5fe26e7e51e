/// @file segreduce.cuh
/// The device pieces of segmented reduce that several stages launch: the accumulator of each
/// value type, a group of lanes per segment (stage 2 with a warp, stage 5 with 1 to 32 lanes), a
/// block per segment (stages 3 and 5), and the load-balanced Merge Path reduce with its carries
/// (stages 4 and 5): tiles that load their items and ends into shared memory, and the variant
/// whose threads read them from global memory.
#pragma once

#include <cstdint>
#include <type_traits>

#include "algorithm/merge_path.hpp"
#include "device/block.cuh"
#include "device/grid_dependency.cuh"
#include "device/merge_tile.cuh"
#include "device/thread_ops.hpp"
#include "device/warp.cuh"
#include "host/check.hpp"
#include "host/dependent_launch.hpp"
#include "host/launch.hpp"
#include "kernels/merge_path_partitions.cuh"
#include "merge_reduce.hpp"
#include "segreduce.hpp"

namespace stepwise::segmented {

/// What a sum of T is accumulated in: uint32 for int32 (wrap-around is defined for unsigned
/// types), T itself for float32 and float64.
template <class T>
using Accum = std::conditional_t<std::is_integral_v<T>, std::uint32_t, T>;

/// Item @p i of @p values as an accumulator.
template <class T>
__device__ __forceinline__ Accum<T> load_accum(const T* values, std::uint64_t i) {
  return static_cast<Accum<T>>(values[i]);
}

/// A sum back as the value type (int32: the low 32 bits, two's complement).
template <class T>
__device__ __forceinline__ T to_value(Accum<T> sum) {
  return static_cast<T>(sum);
}

/// A group of LANES consecutive lanes of a warp per segment (LANES a power of two, 1 to 32):
/// the lanes of a group stride over its segment's items, then add their partial sums by
/// shuffles, and the group's first lane writes the sum. The warp walks its segments in a
/// warp-uniform loop (base advances by the whole grid's groups), so every lane reaches every
/// shuffle: a full-warp shuffle needs all 32 lanes, whatever their segments' lengths.
template <int LANES, class T>
__global__ void group_per_segment(const T* __restrict__ values, const std::uint64_t* __restrict__ offsets,
                                  T* __restrict__ out, std::uint64_t segments) {
  constexpr int kGroupsPerWarp = 32 / LANES;
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t warp = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const std::uint64_t warps = static_cast<std::uint64_t>(gridDim.x) * blockDim.x / 32;
  for (std::uint64_t base = warp * kGroupsPerWarp; base < segments; base += warps * kGroupsPerWarp) {
    const std::uint64_t segment = base + lane / LANES;
    Accum<T> sum = 0;
    if (segment < segments)
      for (std::uint64_t i = offsets[segment] + lane % LANES; i < offsets[segment + 1]; i += LANES)
        sum += load_accum(values, i);
#pragma unroll
    for (int offset = LANES / 2; offset > 0; offset /= 2) sum += shuffle_down(sum, offset);
    if (segment < segments && lane % LANES == 0) out[segment] = to_value<T>(sum);
  }
}

/// A block per segment: the block's threads stride over the segment's items, block_reduce adds
/// their sums (one barrier), thread 0 writes. Blocks walk the segments by the grid's size.
template <int NT, class T>
__global__ void __launch_bounds__(NT)
    block_per_segment(const T* __restrict__ values, const std::uint64_t* __restrict__ offsets, T* __restrict__ out,
                      std::uint64_t segments) {
  __shared__ Accum<T> warp_totals[32];
  for (std::uint64_t segment = blockIdx.x; segment < segments; segment += gridDim.x) {
    Accum<T> sum = 0;
    for (std::uint64_t i = offsets[segment] + threadIdx.x; i < offsets[segment + 1]; i += NT)
      sum += load_accum(values, i);
    sum = block_reduce(sum, warp_totals, Plus<Accum<T>>{});
    if (threadIdx.x == 0) out[segment] = to_value<T>(sum);
    __syncthreads();  // warp_totals is read before the next segment's block_reduce writes it
  }
}

/// Stage 4's tile of the load-balanced reduce: NT threads, VT steps each of the merge of segment
/// ends (A = offsets + 1: segment s ends at offsets[s + 1]) with item indices (B = 0, 1, ...,
/// n - 1, never stored), ties taking the end first (Bounds::lower: an item equal to an end
/// offset starts the next segment). The partition kernel cuts the merge every NT x VT steps, so
/// a tile merges exactly its ends [a_begin, a_end) and its items [b_begin, b_end).
template <int NT, int VT, class T>
struct MergeReduceTile {
  static constexpr int kTile = NT * VT;
  static_assert(NT % 32 == 0 && NT <= 1024, "whole warps");
  using A = Accum<T>;
  using Load = VectorizedRangeLoad<NT, VT, T>;

  /// The tile's shared memory.
  struct Storage {
    alignas(16) T items[kTile + Load::kPad];  ///< the tile's items (16-byte loads keep their offset mod 16 bytes)
    std::int32_t ends[kTile];                 ///< the tile's segment ends, less the tile's first item index
    A sums[kTile];                            ///< the sums of the segments that end in the tile
    A carry;                                  ///< the tile's part of the segment open at its end
  };
  static_assert(sizeof(Storage) <= 48 * 1024, "the tile fits a block's static shared memory");

  /// Runs tile blockIdx.x: writes out[s] of every segment s that ends in the tile and the tile's
  /// carry (the segment open at its end, a_end, and the tile's part of it). With @p kVectorLoads
  /// the items come in 16-byte vectors (@p values 16-byte aligned); without, one element a
  /// load. Either way every warp-wide load reads consecutive addresses.
  template <bool kVectorLoads>
  __device__ static void run(const T* __restrict__ values, const std::uint64_t* __restrict__ offsets,
                             T* __restrict__ out, std::uint64_t n, std::uint64_t segments,
                             const std::int64_t* __restrict__ partitions, Carry<A>* __restrict__ carries,
                             Storage& storage) {
    const MergeRange<std::int64_t> range =
        this_tile_range(static_cast<std::int64_t>(segments), static_cast<std::int64_t>(n), kTile, partitions);
    const int end_count = static_cast<int>(range.a_count());
    const int item_count = static_cast<int>(range.b_count());

    // 1. Coalesced loads of the tile's items and ends, all in flight before the first store to
    //    shared memory. An end is kept as an int: at most kTile past the tile's first item.
    int item_base = 0;
    Load vectors;
    T item[VT];
    if constexpr (kVectorLoads) {
      vectors.load(values, static_cast<std::int64_t>(n), range.b_begin, item_count, values, 0, 0, 0);
    } else {
#pragma unroll
      for (int i = 0; i < VT; ++i) {
        const int slot = tile::strided_slot(i, threadIdx.x, NT);
        if (slot < item_count) item[i] = values[range.b_begin + slot];
      }
    }
    std::uint64_t end[VT];
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot < end_count) end[i] = offsets[range.a_begin + 1 + slot];
    }
    if constexpr (kVectorLoads) {
      item_base = vectors.store(storage.items).a_offset;
    } else {
#pragma unroll
      for (int i = 0; i < VT; ++i) {
        const int slot = tile::strided_slot(i, threadIdx.x, NT);
        if (slot < item_count) storage.items[slot] = item[i];
      }
    }
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot < end_count) storage.ends[slot] = static_cast<std::int32_t>(end[i] - range.b_begin);
    }
    if (threadIdx.x == 0) storage.carry = A(0);
    __syncthreads();

    // 2. Each thread searches its diagonal in shared memory and walks its VT steps there: an
    //    item adds, an end stores the running sum in sums and starts again from 0.
    const int diagonal = min(VT * static_cast<int>(threadIdx.x), end_count + item_count);
    const int a =
        merge_path<Bounds::lower>(storage.ends, end_count, CountingIterator<int>{0}, item_count, diagonal, Less{});
    const Carry<A> open = merge_reduce_walk<VT, A>(
        storage.ends, a, end_count, diagonal - a, item_count,
        [&](int i) { return static_cast<A>(storage.items[item_base + i]); },
        [&](int s, A sum) { storage.sums[s] = sum; });
    __syncthreads();

    // 3. A thread's last partial sum belongs to the segment it stopped in: one that ends later
    //    in the tile (add to its sum) or still open at the tile's end (add to the carry). The
    //    segments of a warp's lanes never decrease, so a reduce by segment across the warp
    //    (shuffles) leaves one atomic per segment per warp: a segment over a whole tile costs
    //    NT / 32 atomics, not NT.
    int row = static_cast<int>(open.segment);
    A part = open.sum;
    const unsigned lane = threadIdx.x % 32;
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2) {
      const int other_row = __shfl_down_sync(kFullWarp, row, offset);
      const A other_part = shuffle_down(part, offset);
      if (lane + offset < 32 && other_row == row) part += other_part;
    }
    const int previous_row = __shfl_up_sync(kFullWarp, row, 1);
    if ((lane == 0 || previous_row != row) && part != A(0))
      atomicAdd(row < end_count ? &storage.sums[row] : &storage.carry, part);
    __syncthreads();

    // 4. Coalesced stores of the sums of the segments that ended in the tile, and its carry.
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot < end_count) out[range.a_begin + slot] = to_value<T>(storage.sums[slot]);
    }
    if (threadIdx.x == 0) carries[blockIdx.x] = {static_cast<std::uint64_t>(range.a_end), storage.carry};
  }
};

/// One block per tile of MergeReduceTile. Ready for a dependent launch: it waits for the
/// partition kernel before its first read and at once lets carry_fixup start (a few blocks, which
/// wait in turn for this kernel to finish).
template <int NT, int VT, bool kVectorLoads, class T>
__global__ void __launch_bounds__(NT)
    merge_reduce_tiles(const T* __restrict__ values, const std::uint64_t* __restrict__ offsets, T* __restrict__ out,
                       std::uint64_t n, std::uint64_t segments, const std::int64_t* __restrict__ partitions,
                       Carry<Accum<T>>* __restrict__ carries) {
  __shared__ typename MergeReduceTile<NT, VT, T>::Storage storage;
  wait_for_prior_grid();
  allow_next_grid();
  MergeReduceTile<NT, VT, T>::template run<kVectorLoads>(values, offsets, out, n, segments, partitions, carries,
                                                         storage);
}

/// Stage 4's variant without the shared-memory tile (`4 - shared-memory tile`): the merge of
/// segment ends (A = offsets + 1: segment s ends at offsets[s + 1]) with item indices (B = 0, 1,
/// ..., n - 1, never stored), cut by Merge Path into VT steps per thread (@p partitions: the A
/// elements before each thread's first step, from the partition kernel, one search per thread).
/// Each thread reads its items and ends straight from global memory: at one step the lanes of a
/// warp read addresses about VT items apart, so a warp-wide load spans VT lines (4-byte items)
/// where a coalesced one spans one.
/// A step that takes an item adds it; a step that takes segment s's end writes the running sum to
/// out[s] and starts again from 0 (an empty segment: 0). Ties take the end first (Bounds::lower):
/// an item equal to an end offset starts the next segment (merge_reduce_walk, merge_reduce.hpp).
/// The thread's last open segment goes to carries[t], added by carry_fixup: a partition (8
/// bytes) and a carry (16) written and read back per thread, about 48 bytes per VT items.
template <int NT, int VT, class T>
__global__ void __launch_bounds__(NT)
    merge_path_reduce(const T* __restrict__ values, const std::uint64_t* __restrict__ offsets, T* __restrict__ out,
                      std::uint64_t n, std::uint64_t segments, const std::int64_t* __restrict__ partitions,
                      Carry<Accum<T>>* __restrict__ carries, std::uint64_t threads) {
  const std::uint64_t t = static_cast<std::uint64_t>(blockIdx.x) * NT + threadIdx.x;
  if (t >= threads) return;
  const std::uint64_t* ends = offsets + 1;
  const std::uint64_t total = n + segments;
  const std::uint64_t first = t * VT;
  const std::uint64_t last = first + VT < total ? first + VT : total;
  const std::uint64_t a = static_cast<std::uint64_t>(partitions[t]);
  const std::uint64_t a_end = static_cast<std::uint64_t>(partitions[t + 1]);
  carries[t] = merge_reduce_walk<VT, Accum<T>>(
      ends, a, a_end, first - a, last - a_end, [&](std::uint64_t i) { return load_accum(values, i); },
      [&](std::uint64_t segment, Accum<T> sum) { out[segment] = to_value<T>(sum); });
}

/// The carries (one per tile, or one per thread in the variant) added to their segments: each
/// thread walks kCarriesPerThread consecutive carries (their segments never decrease), adds each run of one segment in
/// a register and makes one atomicAdd per run, so a segment spread over many tiles costs one atomic per chunk of
/// carries, not one per tile.
inline constexpr int kCarriesPerThread = 32;

/// Ready for a dependent launch: waits for the kernel before it (which wrote the carries and the
/// sums it adds to) before its first read.
template <class T>
__global__ void carry_fixup(const Carry<Accum<T>>* __restrict__ carries, std::uint64_t count, T* out,
                            std::uint64_t segments) {
  const std::uint64_t first = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) * kCarriesPerThread;
  if (first >= count) return;
  wait_for_prior_grid();
  const std::uint64_t last = first + kCarriesPerThread < count ? first + kCarriesPerThread : count;
  std::uint64_t segment = carries[first].segment;
  Accum<T> sum = 0;
  const auto flush = [&] {
    if (segment >= segments) return;
    if constexpr (std::is_integral_v<T>)
      atomicAdd(reinterpret_cast<unsigned int*>(out + segment), static_cast<unsigned int>(sum));
    else
      atomicAdd(out + segment, sum);
  };
  for (std::uint64_t c = first; c < last; ++c) {
    const Carry<Accum<T>> carry = carries[c];
    if (carry.segment != segment) {
      flush();
      segment = carry.segment;
      sum = 0;
    }
    sum += carry.sum;
  }
  flush();
}

/// Enqueues the variant without the tile, VT steps per thread: the partition kernel (one Merge
/// Path search per thread), merge_path_reduce, and carry_fixup over a carry per thread. Its
/// scratch (partitions, carries) is carved from @p workspace.
template <int NT, int VT, class T>
void launch_merge_path_reduce_by_thread(const SegReduceArgs<T>& args, Workspace& workspace, cudaStream_t stream) {
  const std::uint64_t total = args.n + args.segments;
  const std::uint64_t threads = ceil_div(total, VT);
  std::int64_t* partitions = workspace.carve<std::int64_t>(0, threads + 1);
  Carry<Accum<T>>* carries =
      workspace.carve<Carry<Accum<T>>>(aligned_bytes((threads + 1) * sizeof(std::int64_t)), threads);
  launch_merge_path_partitions<Bounds::lower>(args.offsets + 1, static_cast<std::int64_t>(args.segments),
                                              CountingIterator<std::uint64_t>{0}, static_cast<std::int64_t>(args.n),
                                              std::int64_t{VT}, partitions, Less{}, stream);
  merge_path_reduce<NT, VT><<<grid_of(ceil_div(threads, NT)), NT, 0, stream>>>(
      args.values, args.offsets, args.out, args.n, args.segments, partitions, carries, threads);
  STEPWISE_CHECK_LAUNCH();
  const std::uint64_t fixers = ceil_div(threads, kCarriesPerThread);
  carry_fixup<<<grid_of(ceil_div(fixers, 256)), 256, 0, stream>>>(carries, threads, args.out, args.segments);
  STEPWISE_CHECK_LAUNCH();
}

/// How the load-balanced reduce reads: from a tile in shared memory, whole vectors (16 bytes,
/// the values aligned to 16 bytes) or one element a load; or each thread straight from global
/// memory (the variant without the tile).
enum class MergeLoads { vectors, elements, by_thread };

/// Enqueues the load-balanced reduce in tiles of NT x VT steps: the partition kernel (one Merge
/// Path search per tile, over the end offsets and the counting items), merge_reduce_tiles, and
/// carry_fixup over the tiles' carries. Stage 4 launches them the ordinary way with a thread per
/// boundary; stage 5 asks for @p kDependent (the last two as programmatic dependent launches,
/// each starting while the kernel before it finishes) and @p kWarpWhereFew (a warp per boundary
/// where boundaries_fit_a_warp_each says, or with @p kSwapSearch, a variant row, where it does not). Its
/// scratch (partitions, carries) is carved from @p workspace. Values not aligned to 16 bytes
/// take the element loads.
template <int NT, int VT, class T, MergeLoads loads = MergeLoads::vectors, bool kDependent = false,
          bool kWarpWhereFew = false, bool kSwapSearch = false>
void launch_merge_path_reduce(const SegReduceArgs<T>& args, Workspace& workspace, cudaStream_t stream) {
  if constexpr (loads == MergeLoads::by_thread) {
    launch_merge_path_reduce_by_thread<NT, VT>(args, workspace, stream);
  } else {
    constexpr int kTile = NT * VT;
    const std::uint64_t total = args.n + args.segments;
    if (total == 0) return;
    const std::uint64_t tiles = ceil_div(total, static_cast<std::uint64_t>(kTile));
    std::int64_t* partitions = workspace.carve<std::int64_t>(0, tiles + 1);
    Carry<Accum<T>>* carries =
        workspace.carve<Carry<Accum<T>>>(aligned_bytes((tiles + 1) * sizeof(std::int64_t)), tiles);
    if (kWarpWhereFew && boundaries_fit_a_warp_each(tiles + 1) != kSwapSearch)
      launch_merge_path_partitions_by_warp<Bounds::lower>(
          args.offsets + 1, static_cast<std::int64_t>(args.segments), CountingIterator<std::uint64_t>{0},
          static_cast<std::int64_t>(args.n), std::int64_t{kTile}, partitions, Less{}, stream);
    else
      launch_merge_path_partitions<Bounds::lower>(args.offsets + 1, static_cast<std::int64_t>(args.segments),
                                                  CountingIterator<std::uint64_t>{0}, static_cast<std::int64_t>(args.n),
                                                  std::int64_t{kTile}, partitions, Less{}, stream);
    const bool aligned = reinterpret_cast<std::uintptr_t>(args.values) % 16 == 0;
    const unsigned grid = grid_of(tiles);
    const Carry<Accum<T>>* const fixed_carries = carries;
    if (loads == MergeLoads::vectors && aligned)
      launch_dependent(kDependent, merge_reduce_tiles<NT, VT, true, T>, grid, NT, 0, stream, args.values, args.offsets,
                       args.out, args.n, args.segments, static_cast<const std::int64_t*>(partitions), carries);
    else
      launch_dependent(kDependent, merge_reduce_tiles<NT, VT, false, T>, grid, NT, 0, stream, args.values, args.offsets,
                       args.out, args.n, args.segments, static_cast<const std::int64_t*>(partitions), carries);
    const std::uint64_t fixers = ceil_div(tiles, static_cast<std::uint64_t>(kCarriesPerThread));
    launch_dependent(kDependent, carry_fixup<T>, grid_of(ceil_div(fixers, std::uint64_t{256})), 256, 0, stream,
                     fixed_carries, static_cast<std::uint64_t>(tiles), args.out, args.segments);
  }
}

}  // namespace stepwise::segmented
