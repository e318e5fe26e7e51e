// Radix stage 1, one bit per pass: a stable split by a scan of the bit.
//
// The plainest radix sort: for each bit of ordered_bits(key), least significant first, move the
// keys whose bit is 0 to the front and those whose bit is 1 behind them, each group in its
// input order. A key's place is its index minus the ones before it (a 0), or the count of zeros
// plus the ones before it (a 1): an exclusive scan of the bit, done as chapter 02's three
// kernels (count the ones of each tile, scan the counts in one block, rescan each tile and
// scatter). Stability is what makes the passes compose: after pass b the keys are sorted by
// their low b + 1 bits. The cost is the lesson: 32 passes for 32-bit keys (64 for 64-bit), each
// reading the keys twice and writing them once, where a digit of several bits needs far fewer
// passes (stage 2).
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "radix.cuh"
#include "sort.hpp"

namespace stepwise::sort {
namespace {

/// The number of keys of each tile whose bit @p shift is 1.
template <int NT, int VT, class K>
__global__ void __launch_bounds__(NT)
    count_ones(const K* __restrict__ keys, std::size_t n, int shift, unsigned* __restrict__ tile_ones) {
  __shared__ unsigned warp_totals[32];
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * NT * VT + static_cast<std::size_t>(threadIdx.x) * VT;
  unsigned ones = 0;
#pragma unroll
  for (int j = 0; j < VT; ++j)
    if (first + j < n) ones += digit(ordered_bits(keys[first + j]), shift, 1);
  ones = block_reduce(ones, warp_totals, Plus<unsigned>{});
  if (threadIdx.x == 0) tile_ones[blockIdx.x] = ones;
}

/// Rescans each tile's bits and writes each key (and value) to its place.
template <int NT, int VT, class K>
__global__ void __launch_bounds__(NT)
    split_scatter(const K* __restrict__ keys_in, const Value* __restrict__ values_in, K* __restrict__ keys_out,
                  Value* __restrict__ values_out, std::size_t n, int shift,
                  const unsigned long long* __restrict__ ones_before_tile, std::size_t tiles) {
  __shared__ typename BlockScan<NT, Plus<unsigned>>::Storage storage;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * NT * VT + static_cast<std::size_t>(threadIdx.x) * VT;
  K key[VT];
  unsigned bit[VT];
  unsigned ones = 0;
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    bit[j] = 0;
    if (first + j < n) {
      key[j] = keys_in[first + j];
      bit[j] = digit(ordered_bits(key[j]), shift, 1);
    }
    ones += bit[j];
  }
  unsigned tile_total = 0;
  const unsigned thread_ones =
      BlockScan<NT, Plus<unsigned>>::exclusive_scan(ones, tile_total, storage, Plus<unsigned>{});
  const unsigned long long zeros = n - ones_before_tile[tiles];  // the scan's last entry holds every one
  unsigned long long ones_before = ones_before_tile[blockIdx.x] + thread_ones;
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    if (first + j >= n) break;
    const std::size_t place = bit[j] != 0 ? zeros + ones_before : first + j - ones_before;
    keys_out[place] = key[j];
    if (values_in != nullptr) values_out[place] = values_in[first + j];
    ones_before += bit[j];
  }
}

using Threads = IntList<128, 256>;
using Items = IntList<4, 8>;

template <class K>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  const SortScratch<K> scratch = carve_scratch(workspace, args);
  dispatch_tile(shape, Threads{}, Items{}, [&](auto nt, auto vt) {
    constexpr int NT = decltype(nt)::value;
    constexpr int VT = decltype(vt)::value;
    const std::size_t tiles = ceil_div(args.n, NT * VT);
    const unsigned grid = grid_of(tiles);
    if (tiles * (sizeof(unsigned) + sizeof(unsigned long long)) + 512 > scratch.rest_bytes)
      throw std::invalid_argument("radix stage 1: the workspace has too few counts for its tiles");
    auto* ones_before_tile = reinterpret_cast<unsigned long long*>(scratch.rest);
    auto* tile_ones =
        reinterpret_cast<unsigned*>(scratch.rest + aligned_bytes((tiles + 1) * sizeof(unsigned long long)));
    if (args.n == 0) return;
    for_each_pass(args, scratch, kKeyBits<K>, stream,
                  [&](const K* keys_in, const Value* values_in, K* keys_out, Value* values_out, int pass) {
                    count_ones<NT, VT><<<grid, NT, 0, stream>>>(keys_in, args.n, pass, tile_ones);
                    STEPWISE_CHECK_LAUNCH();
                    exclusive_scan_counts<256><<<1, 256, 0, stream>>>(tile_ones, tiles, ones_before_tile);
                    STEPWISE_CHECK_LAUNCH();
                    split_scatter<NT, VT><<<grid, NT, 0, stream>>>(keys_in, values_in, keys_out, values_out, args.n,
                                                                   pass, ones_before_tile, tiles);
                    STEPWISE_CHECK_LAUNCH();
                  });
  });
}

}  // namespace

template <class K>
SortStage<K> radix_one_bit() {
  SortStage<K> stage;
  stage.name = "one-bit-split";
  stage.lesson = "one bit per pass, a stable split by a 3-kernel scan of the bit: 32 passes for 32-bit keys";
  stage.shape = {256, 4};
  stage.sweep = tile_grid(Threads{}, Items{});
  stage.launch = launch<K>;
  stage.traits.algorithm = Algorithm::radix;
  stage.traits.digit_bits = 1;
  stage.traits.key_reads_per_pass = 2.0;  // the count kernel and the scatter
  stage.traits.key_writes_per_pass = 1.0;
  stage.traits.launches_per_pass = 3;
  return stage;
}

SORT_STAGE_ROWS(radix_one_bit);

}  // namespace stepwise::sort
