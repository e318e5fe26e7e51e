/// @file block.cuh
/// Block primitives built on the warp ones: a block-wide reduce and a block-wide exclusive
/// scan, each with one barrier.
#pragma once

#include "device/warp.cuh"

namespace stepwise {

/// The reduction of @p value over the block in thread order, valid in thread 0.
/// blockDim.x must be a multiple of 32 (at most 1024); @p warp_totals is 32 values of
/// shared memory. Each warp reduces with shuffles, lane 0 of each warp writes one value, one
/// __syncthreads, and warp 0 reduces those: one barrier instead of log2(blockDim.x).
/// A second call on the same @p warp_totals needs a __syncthreads between the calls.
template <class Op>
__device__ __forceinline__ typename Op::value_type block_reduce(typename Op::value_type value,
                                                                typename Op::value_type* warp_totals, Op op) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  value = warp_reduce(value, op);
  if (lane == 0) warp_totals[warp] = value;
  __syncthreads();
  if (warp == 0) value = warp_reduce(lane < blockDim.x / 32 ? warp_totals[lane] : Op::identity(), op);
  return value;
}

/// Block-wide exclusive scan of one value per thread: each warp scans its 32 values with
/// shuffles (registers, no barrier), lane 31 posts the warp's total, and after one barrier
/// every thread folds in the totals of the warps before it (at most NT/32 broadcast reads).
/// @tparam NT threads per block, a multiple of 32, at most 1024.
template <int NT, class Op>
struct BlockScan {
  using T = typename Op::value_type;
  static constexpr int kWarps = NT / 32;
  static_assert(NT % 32 == 0 && kWarps <= 32, "NT must be a multiple of 32, at most 1024");
  /// The shared memory one scan needs.
  struct Storage {
    T warp_totals[kWarps];
  };
  /// Returns the exclusive scan of @p value over the block's threads (identity for thread 0)
  /// and sets @p aggregate to the reduction of all NT values. @p storage may be written
  /// again only after the caller's next __syncthreads.
  __device__ static T exclusive_scan(T value, T& aggregate, Storage& storage, Op op) {
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const T inclusive = warp_inclusive_scan(value, op);
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

}  // namespace stepwise
