// Radix stage 4, Onesweep (Adinets & Merrill 2022): one histogram kernel, then one kernel per
// digit pass that chains its tiles' digit offsets by decoupled look-back.
//
// Changed from stage 3: the count kernel of every pass is gone. The digit counts of every pass
// do not depend on the order the keys are in, only on the keys, so one upsweep kernel reads the
// keys once and counts the digits of all passes at once, and a tiny kernel scans each pass's 256
// counts into where each digit starts in the output. A pass is then one kernel: a tile takes a
// ticket (tiles are served in order, so every earlier tile is already running), ranks its keys
// by digit as in stage 3, publishes its count of each digit, and each of its 256 threads looks
// back along its own digit, as chapter 02's single-pass scan does along one value
// (look_back_column in common/device/lookback.cuh), until an earlier tile's inclusive count
// ends the walk. The digit's start, plus the earlier tiles' keys of that digit, plus the rank
// give the place. Digits are 8 bits wide: 4 passes for 32-bit keys, each reading and writing
// the keys once, where stage 3 read them twice; the statuses (8 bytes per tile and digit) are
// cleared before each pass.
#include <cuda/atomic>

#include "algorithm/lookback.hpp"
#include "device/lookback.cuh"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "radix.cuh"
#include "radix_passes.cuh"

namespace stepwise::sort {
namespace {

constexpr int kRadix = 256;
constexpr int kBits = 8;
constexpr unsigned kBackoffNs = 64;

/// One digit pass: tiles in ticket order, ranked by digit, their digit offsets chained by a
/// look-back per digit, sorted in shared memory and written in runs.
template <int VT, class K>
__global__ void __launch_bounds__(kRadix)
    onesweep_pass(const K* __restrict__ keys_in, const Value* __restrict__ values_in, K* __restrict__ keys_out,
                  Value* __restrict__ values_out, std::size_t n, int shift,
                  const unsigned long long* __restrict__ digit_starts, unsigned* ticket_counter,
                  PackedCountStatus status) {
  using Tile = DigitTile<kRadix, VT, kRadix, K>;
  __shared__ typename Tile::Storage storage;
  __shared__ unsigned ticket;
  if (threadIdx.x == 0) ticket = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  const std::size_t tile_index = ticket;
  const std::size_t first = tile_index * kRadix * VT;
  const int tile_count = static_cast<int>(n - first < static_cast<std::size_t>(kRadix) * VT ? n - first : kRadix * VT);
  Tile tile;
  const unsigned count = tile.load_and_rank(keys_in, values_in, first, tile_count, shift, storage);
  const unsigned d = threadIdx.x;  // one thread per digit
  const std::size_t entry = tile_index * kRadix + d;
  status.publish(entry, tile_index == 0 ? kTileInclusive : kTileAggregate, count);
  const unsigned long long before = look_back_column(status, entry, kRadix, kBackoffNs);
  if (tile_index != 0) status.publish(entry, kTileInclusive, before + count);
  storage.output_base[d] = digit_starts[d] + before - storage.tile_start[d];
  tile.write(keys_out, values_out, values_in != nullptr, shift, storage);
}

using Items = IntList<8, 10>;

template <class K>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  if (shape.threads != kRadix) throw std::invalid_argument("onesweep: one thread per digit, 256 threads per block");
  if (shape.blocks_per_sm <= 0) throw std::invalid_argument("onesweep: the histogram kernel needs its blocks per SM");
  dispatch(shape.items, Items{}, "items per thread", [&](auto vt) {
    constexpr int VT = decltype(vt)::value;
    onesweep_passes(
        args, workspace, static_cast<std::size_t>(kRadix) * VT, "onesweep", stream,
        [&](const K* keys, std::size_t n, unsigned long long* histograms) {
          count_all_digits<kRadix><<<resident_grid(shape), kRadix, 0, stream>>>(keys, n, histograms);
        },
        [&](const K* keys_in, const Value* values_in, K* keys_out, Value* values_out, const OnesweepPass& pass) {
          onesweep_pass<VT><<<pass.grid, kRadix, 0, stream>>>(keys_in, values_in, keys_out, values_out, args.n,
                                                              pass.shift, pass.digit_starts, pass.ticket_counter,
                                                              pass.status);
        });
  });
}

}  // namespace

template <class K>
SortStage<K> radix_onesweep() {
  SortStage<K> stage;
  stage.name = "onesweep";
  stage.lesson = "one histogram kernel for all passes, then one kernel per 8-bit pass chained by look-back";
  stage.shape = {kRadix, 8, 4};
  stage.sweep = shape_grid({kRadix}, Items::values(), {4});
  stage.launch = launch<K>;
  stage.traits.algorithm = Algorithm::radix;
  stage.traits.digit_bits = kBits;
  stage.traits.key_reads_per_pass = 1.0;  // the pass kernel
  stage.traits.key_reads_per_sort = 1.0;  // the histogram kernel
  stage.traits.key_writes_per_pass = 1.0;
  stage.traits.launches_per_pass = 2;  // the status clear and the pass kernel
  stage.traits.launches_per_sort = 3;  // the histogram clear, the histogram kernel, the scan of the digit starts
  return stage;
}

SORT_STAGE_ROWS(radix_onesweep);

}  // namespace stepwise::sort
