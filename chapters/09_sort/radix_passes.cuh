/// @file radix_passes.cuh
/// The host half of the multi-kernel digit passes (radix stages 2 and 3): the workspace pieces of
/// one pass (digit counts per tile, their scan, CUB's scan storage) and the pass loop. Each pass
/// runs three kernels: count the digits of each tile, scan the counts (digit-major, so that
/// entry (d, tile) becomes the first place in the output of the tile's keys of digit d), and
/// the stage's own scatter.
#pragma once

#include <cub/device/device_scan.cuh>

#include <stdexcept>

#include "host/check.hpp"
#include "host/launch.hpp"
#include "radix.cuh"
#include "sort.hpp"

namespace stepwise::sort {

/// The digit widths stages 2 and 3 compile (--digit-bits).
inline constexpr int kDefaultDigitBits = 4;

/// Runs every digit pass of @p args with digits of log2(RADIX) bits and tiles of NT x VT keys:
/// the counts, CUB's exclusive scan of them, then `scatter(keys_in, values_in, keys_out,
/// values_out, shift, offsets, tiles)` enqueues the stage's scatter kernel.
template <int NT, int VT, int RADIX, class K, class Scatter>
void digit_passes(const SortArgs<K>& args, Workspace& workspace, cudaStream_t stream, Scatter&& scatter) {
  constexpr int kBits = ilog2(RADIX);
  const SortScratch<K> scratch = carve_scratch(workspace, args);
  const std::size_t tiles = ceil_div(args.n, static_cast<std::size_t>(NT) * VT);
  const std::size_t entries = tiles * RADIX;
  const std::size_t count_bytes = aligned_bytes(entries * sizeof(unsigned long long));
  auto* counts = reinterpret_cast<unsigned long long*>(scratch.rest);
  auto* offsets = reinterpret_cast<unsigned long long*>(scratch.rest + count_bytes);
  std::size_t scan_bytes = 0;
  STEPWISE_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, counts, offsets, static_cast<std::int64_t>(entries), stream));
  if (2 * count_bytes + scan_bytes > scratch.rest_bytes)
    throw std::invalid_argument("radix digit passes: the workspace has too little room for the digit counts of " +
                                std::to_string(tiles) + " tiles");
  void* scan_storage = scratch.rest + 2 * count_bytes;
  const unsigned grid = grid_of(tiles);
  const int passes = (kKeyBits<K> + kBits - 1) / kBits;
  if (args.n == 0) return;
  for_each_pass(args, scratch, passes, stream,
                [&](const K* keys_in, const Value* values_in, K* keys_out, Value* values_out, int pass) {
                  const int shift = pass * kBits;
                  tile_digit_counts<NT, VT, RADIX><<<grid, NT, 0, stream>>>(keys_in, args.n, shift, counts);
                  STEPWISE_CHECK_LAUNCH();
                  STEPWISE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_storage, scan_bytes, counts, offsets,
                                                                    static_cast<std::int64_t>(entries), stream));
                  scatter(keys_in, values_in, keys_out, values_out, shift,
                          static_cast<const unsigned long long*>(offsets), tiles);
                });
}

}  // namespace stepwise::sort
