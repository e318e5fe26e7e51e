/// @file segreduce.cuh
/// The device pieces of segmented reduce that several stages launch: the accumulator of each
/// value type, a group of lanes per segment (stage 2 with a warp, stage 5 with 1 to 32 lanes), a
/// block per segment (stages 3 and 5), and the load-balanced Merge Path reduce with its carries
/// (stages 4 and 5).
#pragma once

#include <cstdint>
#include <type_traits>

#include "algorithm/merge_path.hpp"
#include "device/block.cuh"
#include "device/thread_ops.hpp"
#include "device/warp.cuh"
#include "host/check.hpp"
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

/// The merge of segment ends (A = offsets + 1: segment s ends at offsets[s + 1]) with item
/// indices (B = 0, 1, ..., n - 1, never stored), cut by Merge Path into VT steps per thread
/// (@p partitions: the A elements before each thread's first step, from the partition kernel).
/// A step that takes an item adds it; a step that takes segment s's end writes the running sum to
/// out[s] and starts again from 0 (an empty segment: 0). Ties take the end first (Bounds::lower):
/// an item equal to an end offset starts the next segment (merge_reduce_walk, merge_reduce.hpp).
/// The thread's last open segment goes to carries[t], added by carry_fixup.
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

/// The carries added to their segments: each thread walks kCarriesPerThread consecutive carries
/// (their segments never decrease), adds each run of one segment in a register and makes one
/// atomicAdd per run, so a segment spread over many Merge Path threads costs one atomic per
/// chunk of carries, not one per thread.
inline constexpr int kCarriesPerThread = 32;

template <class T>
__global__ void carry_fixup(const Carry<Accum<T>>* __restrict__ carries, std::uint64_t count, T* out,
                            std::uint64_t segments) {
  const std::uint64_t first = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) * kCarriesPerThread;
  if (first >= count) return;
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

/// Enqueues the load-balanced reduce with VT steps per thread: the partition kernel (one Merge
/// Path search per thread, over the end offsets and the counting items), merge_path_reduce, and
/// carry_fixup. Its scratch (partitions, carries) is carved from @p workspace.
template <int NT, int VT, class T>
void launch_merge_path_reduce(const SegReduceArgs<T>& args, Workspace& workspace, cudaStream_t stream) {
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

}  // namespace stepwise::segmented
