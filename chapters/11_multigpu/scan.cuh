/// @file scan.cuh
/// The device half of the distributed scan: chapter 02's single-pass scan with decoupled
/// look-back, built from the same common/ pieces (warp-striped tiles, BlockScan, look_back over
/// packed tile statuses), with one addition: every element of the part is offset by a seed read
/// on the device from the gathered per-GPU totals, so that a GPU that knows the totals of the
/// GPUs before it scans its part straight into its slice of the global scan. And the kernel that
/// adds that offset afterwards, for the stage that scans first.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "algorithm/lookback.hpp"
#include "device/block.cuh"
#include "device/lookback.cuh"
#include "device/thread_ops.hpp"
#include "device/tile.cuh"
#include "host/check.hpp"
#include "host/launch.hpp"
#include "scan.hpp"
#include "scan_ops.hpp"

namespace stepwise::multigpu {

/// CUB's first-poll delay for 4-byte sums on sm_90, as chapter 02's stage 7 uses it.
inline constexpr unsigned kFirstPollNs = 1245;

/// The look-back workspace for a part of @p n values (ticket and packed statuses).
inline LookbackLayout scan_lookback_layout(std::size_t n) {
  return packed_lookback_layout(ceil_div(n, static_cast<std::size_t>(kScanTileItems)));
}

/// Chapter 02's stage 7, inclusive, with a seed: the offset of GPU @p g (gpu_offset over
/// @p totals; none when @p totals is null) is folded in front of every tile's prefix.
template <class Op>
__global__ void __launch_bounds__(kScanThreads)
    seeded_single_pass_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                            unsigned* ticket_counter, PackedTileStatus<typename Op::value_type> status,
                            const typename Op::value_type* totals, int g) {
  using T = typename Op::value_type;
  using Scan = BlockScan<kScanThreads, Op>;
  const Op op;
  __shared__ T items[kScanTileItems];
  __shared__ typename Scan::Storage scan_storage;
  __shared__ unsigned ticket;
  __shared__ T tile_prefix;
  if (threadIdx.x == 0) ticket = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  const std::size_t tile = ticket;
  const std::size_t base = tile * kScanTileItems;
  const int count = n - base < kScanTileItems ? static_cast<int>(n - base) : kScanTileItems;
  T x[kScanValues];
  load_warp_striped<kScanThreads, kScanValues>(in, base, count, Op::identity(), x);
  warp_striped_to_thread_order<kScanThreads, kScanValues>(x, items);
  T aggregate;
  const T thread_prefix = Scan::exclusive_scan(thread_reduce<kScanValues>(x, op), aggregate, scan_storage, op);
  const T seed = totals != nullptr ? gpu_offset<Op>(totals, g) : Op::identity();
  T prefix = seed;
  if (tile == 0) {
    if (threadIdx.x == 0) status.publish(0, kTileInclusive, aggregate);
  } else {
    if (threadIdx.x == 0) status.publish(tile, kTileAggregate, aggregate);
    if (threadIdx.x < 32) {
      __nanosleep(kFirstPollNs);
      const T exclusive_prefix = look_back(status, tile, op, 0);
      if (threadIdx.x == 0) {
        status.publish(tile, kTileInclusive, op(exclusive_prefix, aggregate));
        tile_prefix = exclusive_prefix;
      }
    }
    __syncthreads();
    prefix = op(seed, tile_prefix);
  }
  thread_scan<kScanValues>(x, op(prefix, thread_prefix), false, op);
  store_thread_order_by_warp<kScanThreads, kScanValues>(out, base, count, x, items);
}

/// Scans @p in[0, n) into @p out on @p stream, seeded with GPU @p g's offset over @p totals
/// (null: no seed). @p lookback is scan_lookback_layout(n).total_bytes of device memory; it is
/// cleared first, on the stream. n = 0 launches nothing.
template <class Op>
void launch_seeded_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, void* lookback,
                        const typename Op::value_type* totals, int g, cudaStream_t stream) {
  if (n == 0) return;
  const LookbackLayout layout = scan_lookback_layout(n);
  auto* bytes = static_cast<unsigned char*>(lookback);
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(bytes, 0, layout.clear_bytes, stream));
  const PackedTileStatus<typename Op::value_type> status{
      reinterpret_cast<unsigned long long*>(bytes + layout.status_offset)};
  const std::size_t tiles = ceil_div(n, static_cast<std::size_t>(kScanTileItems));
  seeded_single_pass_scan<Op>
      <<<grid_of(tiles), kScanThreads, 0, stream>>>(in, out, n, reinterpret_cast<unsigned*>(bytes), status, totals, g);
  STEPWISE_CHECK_LAUNCH();
}

/// out[i] = offset op out[i] for i < n, the offset GPU @p g's over @p totals: a grid-stride
/// pass of 16-byte vectors where the pointer allows, one more read and write of the part.
template <class Op>
__global__ void add_gpu_offset(typename Op::value_type* out, std::size_t n, const typename Op::value_type* totals,
                               int g) {
  using T = typename Op::value_type;
  const Op op;
  const T offset = gpu_offset<Op>(totals, g);
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t quads = n / 4;
  auto* out4 = reinterpret_cast<uint4*>(out);  // four 4-byte values a vector
  for (std::size_t i = first; i < quads; i += stride) {
    uint4 words = out4[i];
    T* values = reinterpret_cast<T*>(&words);
    for (int k = 0; k < 4; ++k) values[k] = op(offset, values[k]);
    out4[i] = words;
  }
  for (std::size_t i = quads * 4 + first; i < n; i += stride) out[i] = op(offset, out[i]);
}

/// Adds GPU @p g's offset to @p out[0, n) on @p stream (@p out 16-byte aligned, as every
/// DeviceBuffer is). n = 0 launches nothing.
template <class Op>
void launch_add_offset(typename Op::value_type* out, std::size_t n, const typename Op::value_type* totals, int g,
                       cudaStream_t stream) {
  static_assert(sizeof(typename Op::value_type) == 4, "the offset pass moves 4-byte values four at a time");
  if (n == 0) return;
  require_aligned(out, 16);
  const LaunchShape shape{256, 1, 8};
  const std::size_t blocks = ceil_div(n / 4 + 1, static_cast<std::size_t>(shape.threads));
  const unsigned grid = std::min(grid_of(blocks), resident_grid(shape));
  add_gpu_offset<Op><<<grid, shape.threads, 0, stream>>>(out, n, totals, g);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace stepwise::multigpu
