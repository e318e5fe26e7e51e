/// @file radix_passes.cuh
/// The host half of the radix stages' digit passes. digit_passes() (stages 2 and 3): the
/// workspace pieces of one pass (digit counts per tile, their scan, CUB's scan storage) and the
/// pass loop; each pass runs three kernels: count the digits of each tile, scan the counts
/// (digit-major, so that entry (d, tile) becomes the first place in the output of the tile's
/// keys of digit d), and the stage's own scatter. onesweep_passes() (stages 4 and 5): the digit
/// histograms of every pass, the look-back statuses and the pass loop around the stage's own
/// histogram and pass kernels.
#pragma once

#include <cub/device/device_scan.cuh>

#include <stdexcept>
#include <string>

#include "algorithm/lookback.hpp"
#include "device/lookback.cuh"
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

/// Where one Onesweep pass kernel finds its inputs: the pass's digit starts (one per digit, the
/// keys of smaller digits in the whole input), the ticket counter that hands out tiles in order
/// and the look-back statuses of every (tile, digit), both cleared before each pass.
struct OnesweepPass {
  int shift = 0;                                     ///< the bit where this pass's digit starts
  const unsigned long long* digit_starts = nullptr;  ///< kOnesweepRadix entries
  unsigned* ticket_counter = nullptr;                ///< 0 when the pass starts
  PackedCountStatus status{};                        ///< tiles x kOnesweepRadix, kTileInvalid when it starts
  unsigned grid = 0;                                 ///< one block per tile
};

/// Runs an Onesweep sort (radix stages 4 and 5) of @p args in tiles of @p tile_keys keys:
/// clears the histograms, `histogram(keys, n, histograms)` enqueues the stage's histogram kernel
/// (kPasses x kOnesweepRadix 64-bit counts, added to), one block per pass scans them into digit
/// starts, then per pass the statuses are cleared and `pass(keys_in, values_in, keys_out,
/// values_out, OnesweepPass)` enqueues the stage's pass kernel. @p who names the stage in errors.
template <class K, class Histogram, class Pass>
void onesweep_passes(const SortArgs<K>& args, Workspace& workspace, std::size_t tile_keys, const std::string& who,
                     cudaStream_t stream, Histogram&& histogram, Pass&& pass) {
  const SortScratch<K> scratch = carve_scratch(workspace, args);
  constexpr int kPasses = (kKeyBits<K> + kOnesweepBits - 1) / kOnesweepBits;
  const std::size_t tiles = ceil_div(args.n, tile_keys);
  const std::size_t histogram_bytes = aligned_bytes(kPasses * kOnesweepRadix * sizeof(unsigned long long));
  const LookbackLayout layout = packed_lookback_layout(tiles * kOnesweepRadix);
  if (histogram_bytes + layout.total_bytes > scratch.rest_bytes)
    throw std::invalid_argument(who + ": the workspace has too few statuses for " + std::to_string(tiles) + " tiles");
  auto* histograms = reinterpret_cast<unsigned long long*>(scratch.rest);
  unsigned char* lookback = scratch.rest + histogram_bytes;
  OnesweepPass step;
  step.ticket_counter = reinterpret_cast<unsigned*>(lookback);
  step.status = PackedCountStatus{reinterpret_cast<unsigned long long*>(lookback + layout.status_offset)};
  step.grid = grid_of(tiles);
  if (args.n == 0) return;
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(histograms, 0, histogram_bytes, stream));
  histogram(args.keys_in, args.n, histograms);
  STEPWISE_CHECK_LAUNCH();
  scan_digit_starts<kOnesweepRadix><<<kPasses, kOnesweepRadix, 0, stream>>>(histograms);
  STEPWISE_CHECK_LAUNCH();
  for_each_pass(args, scratch, kPasses, stream,
                [&](const K* keys_in, const Value* values_in, K* keys_out, Value* values_out, int pass_index) {
                  STEPWISE_CUDA_CHECK(cudaMemsetAsync(lookback, 0, layout.clear_bytes, stream));
                  step.shift = pass_index * kOnesweepBits;
                  step.digit_starts = histograms + static_cast<std::size_t>(pass_index) * kOnesweepRadix;
                  pass(keys_in, values_in, keys_out, values_out, static_cast<const OnesweepPass&>(step));
                  STEPWISE_CHECK_LAUNCH();
                });
}

}  // namespace stepwise::sort
