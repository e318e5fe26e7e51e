/// @file atomics.cuh
/// Device pieces the histogram stages share: each operation's value of an element and its
/// atomic (global or shared memory), and the warp-tiled grid-stride loop every stage runs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "atomics.hpp"
#include "host/check.hpp"
#include "host/device.hpp"
#include "host/launch.hpp"
#include "device/warp_aggregate.cuh"

namespace stepwise::atomics {

/// The key of a lane past n: no bin has it, so the lanes of a partial last warp form a group of
/// their own whose leader does no atomic.
inline constexpr Key kNoKey = -1;

/// `*address += value` with an atomicCAS loop on the 64-bit pattern: read, add, try to swap in
/// the sum; if another lane changed the bin in between, retry with what it wrote. Lanes of a
/// warp that hit one address succeed one per trip around the loop (each needs the others'
/// results), which is what warp aggregation removes. Works on global and shared memory.
__device__ __forceinline__ void cas_add(double* address, double value) {
  auto* word = reinterpret_cast<unsigned long long*>(address);
  unsigned long long seen = *word;
  unsigned long long assumed;
  do {
    assumed = seen;
    seen = atomicCAS(word, assumed, __double_as_longlong(__longlong_as_double(assumed) + value));
  } while (seen != assumed);
}

/// The value element @p i adds to its bin: 1 for a count, values[i] otherwise.
template <class Op>
__device__ __forceinline__ typename Op::Value value_of(const typename Op::Value* values, std::int64_t i) {
  if constexpr (Op::kHasValues)
    return values[i];
  else
    return 1;
}

/// The operation's atomic on one bin (global or shared memory alike).
template <class Op>
__device__ __forceinline__ void atomic_update(typename Op::Bin* bin, typename Op::Value value) {
  if constexpr (std::is_same_v<Op, DoubleCas>)
    cas_add(bin, value);
  else
    atomicAdd(bin, value);
}

/// The operation's combine, for the reductions inside a warp.
template <class Op>
struct Plus {
  __device__ __forceinline__ typename Op::Value operator()(typename Op::Value a, typename Op::Value b) const {
    return a + b;
  }
};

/// The warp-tiled grid-stride loop: calls `body(key, value, active)` once per 32-element tile
/// the warp owns, in every lane of the warp together (the tile's start is the same in every
/// lane, so the lanes never diverge at the loop and the full-warp intrinsics inside @p body
/// are safe). A lane past n gets key kNoKey, a zero value and active = false.
template <class Op, class Body>
__device__ __forceinline__ void for_each_warp_tile(const Key* keys, const typename Op::Value* values, std::int64_t n,
                                                   Body body) {
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpLanes;
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * blockDim.x / kWarpLanes;
  const int lane = lane_id();
  for (std::int64_t tile = warp * kWarpLanes; tile < n; tile += warps * kWarpLanes) {
    const std::int64_t i = tile + lane;
    const bool active = i < n;
    const Key key = active ? keys[i] : kNoKey;
    const typename Op::Value value = active ? value_of<Op>(values, i) : typename Op::Value(0);
    body(key, value, active);
  }
}

/// The talk's method on one tile: the lanes that share a key find each other
/// (`__match_any_sync`), reduce their values into the group's lowest lane (the sub-tree), and
/// that lane alone does the atomic on @p bins (global or shared memory): one atomic per
/// distinct key in the warp. All 32 lanes call it.
template <class Op>
__device__ __forceinline__ void aggregate_into(typename Op::Bin* bins, Key key, typename Op::Value value, bool active) {
  const std::uint32_t peers = peers_by_match(key, kFullWarp);
  const typename Op::Value sum = subtree_reduce(peers, value, Plus<Op>{});
  if (active && lane_id() == leader_of(peers)) atomic_update<Op>(bins + key, sum);
}

/// The grid of a grid-stride stage: @p shape.blocks_per_sm blocks on every SM, but no more
/// blocks than @p n needs (one element per thread).
/// @throws std::invalid_argument for a bad shape.
inline unsigned tile_grid(std::size_t n, const LaunchShape& shape) {
  require_threads(shape.threads);
  const std::size_t needed = ceil_div(n, static_cast<std::size_t>(shape.threads));
  return grid_of(std::min<std::size_t>(resident_grid(shape), needed));
}

/// Zeroes @p count bins in stream order (the all-zero pattern is 0 for int, float and double).
template <class Bin>
void zero_bins(Bin* bins, int count, cudaStream_t stream) {
  if (count > 0) STEPWISE_CUDA_CHECK(cudaMemsetAsync(bins, 0, static_cast<std::size_t>(count) * sizeof(Bin), stream));
}

/// Stages 5 and 6: the block's private bins in dynamic shared memory (@p bin_count of them),
/// zeroed by the block. Call privatized_bins() and then, after the block's last atomic on
/// them, merge_private_bins().
template <class Op>
__device__ __forceinline__ typename Op::Bin* privatized_bins(int bin_count) {
  extern __shared__ __align__(16) unsigned char shared_bins[];
  auto* local = reinterpret_cast<typename Op::Bin*>(shared_bins);
  for (int bin = static_cast<int>(threadIdx.x); bin < bin_count; bin += static_cast<int>(blockDim.x)) local[bin] = 0;
  __syncthreads();
  return local;
}

/// Adds the block's private bins to the global ones: one atomic per bin the block touched
/// (a bin still 0 adds nothing and is skipped).
template <class Op>
__device__ __forceinline__ void merge_private_bins(const typename Op::Bin* local, typename Op::Bin* bins,
                                                   int bin_count) {
  __syncthreads();
  for (int bin = static_cast<int>(threadIdx.x); bin < bin_count; bin += static_cast<int>(blockDim.x))
    if (local[bin] != 0) atomic_update<Op>(bins + bin, local[bin]);
}

/// Launches @p privatized (bins in shared memory, signature of stage 5's kernel) when
/// @p bin_count bins fit in one block's shared memory, with as many blocks as fit on the GPU
/// at once (no more than n needs); otherwise @p global (bins in global memory, one resident
/// grid of 8 blocks per SM). Zeroes the global bins first.
template <class Op, class Privatized, class Global>
void launch_privatized(Privatized privatized, Global global, const Key* keys, const typename Op::Value* values,
                       typename Op::Bin* bins, std::size_t n, int bin_count, const LaunchShape& shape,
                       cudaStream_t stream) {
  require_threads(shape.threads);
  zero_bins(bins, bin_count, stream);
  if (n == 0) return;
  const std::size_t bytes = shared_bins_bytes(bin_count, sizeof(typename Op::Bin));
  const std::size_t needed = ceil_div(n, static_cast<std::size_t>(shape.threads));
  if (bytes <= max_shared_bytes_per_block()) {
    STEPWISE_CUDA_CHECK(
        cudaFuncSetAttribute(privatized, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
    int per_sm = 0;
    STEPWISE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, privatized, shape.threads, bytes));
    const std::size_t resident = static_cast<std::size_t>(std::max(per_sm, 1)) * current_sm_count();
    privatized<<<grid_of(std::min(resident, needed)), shape.threads, bytes, stream>>>(
        keys, values, bins, static_cast<std::int64_t>(n), bin_count);
  } else {
    global<<<tile_grid(n, {shape.threads, 0, 8}), shape.threads, 0, stream>>>(keys, values, bins,
                                                                              static_cast<std::int64_t>(n));
  }
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace stepwise::atomics
