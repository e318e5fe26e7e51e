// Radix stage 2, digits: count, scan and scatter per pass over 4-bit digits (Satish, Harris & Garland 2009).
//
// Changed from stage 1: each pass sorts by a digit of 4 bits instead of one bit, so 32-bit keys
// take 8 passes instead of 32, and 64-bit keys 16 instead of 64. A pass is three steps: each
// tile counts its 16 digits; one exclusive scan of all the counts, laid out digit-major (all the
// tiles' counts of digit 0, then of digit 1, ...), gives each (digit, tile) the first place of
// its keys in the output (CUB's single-pass scan, two small kernels: scans are chapter 02's
// subject); and the scatter kernel places each key at that offset plus its rank among the
// tile's keys of its digit. The rank comes from a round of __match_any_sync per NT keys (the
// lanes with the same digit) and a counter per warp and digit (TileDigitRanks in radix.cuh), so
// equal digits keep their input order and the sort stays stable. Each key is read twice and
// written once per pass, as in stage 1, but over a quarter of the passes; the writes are
// scattered: the 32 keys of a warp go to up to 16 places (stage 3 groups them). --digit-bits 8
// takes 4 passes of 256 digits.
#include "host/dispatch.hpp"
#include "radix_passes.cuh"

namespace stepwise::sort {
namespace {

/// Places each key (and value) of each tile at its digit's offset plus its rank: keys loaded
/// in rounds of NT consecutive keys (coalesced), written wherever their digit goes.
template <int NT, int VT, int RADIX, class K>
__global__ void __launch_bounds__(NT)
    scatter_ranked(const K* __restrict__ keys_in, const Value* __restrict__ values_in, K* __restrict__ keys_out,
                   Value* __restrict__ values_out, std::size_t n, int shift,
                   const unsigned long long* __restrict__ offsets) {
  using Ranks = TileDigitRanks<NT, RADIX>;
  __shared__ typename Ranks::Storage storage;
  Ranks::begin(storage);
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * NT * VT;
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    const std::size_t i = first + static_cast<std::size_t>(j) * NT + threadIdx.x;
    const bool valid = i < n;
    const K key = valid ? keys_in[i] : K{};
    const unsigned d = valid ? digit(ordered_bits(key), shift, ilog2(RADIX)) : RADIX;
    const unsigned rank = Ranks::rank(d, storage);
    if (valid) {
      const std::size_t place = offsets[static_cast<std::size_t>(d) * gridDim.x + blockIdx.x] + rank;
      keys_out[place] = key;
      if (values_in != nullptr) values_out[place] = values_in[i];
    }
  }
}

using Threads = IntList<128, 256>;
using Items = IntList<8, 16>;
using DigitBits = IntList<4, 8>;

template <class K>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  dispatch(args.digit_bits == 0 ? kDefaultDigitBits : args.digit_bits, DigitBits{}, "digit bits", [&](auto bits) {
    constexpr int RADIX = 1 << decltype(bits)::value;
    dispatch_tile(shape, Threads{}, Items{}, [&](auto nt, auto vt) {
      constexpr int NT = decltype(nt)::value;
      constexpr int VT = decltype(vt)::value;
      digit_passes<NT, VT, RADIX>(args, workspace, stream,
                                  [&](const K* keys_in, const Value* values_in, K* keys_out, Value* values_out,
                                      int shift, const unsigned long long* offsets, std::size_t tiles) {
                                    scatter_ranked<NT, VT, RADIX><<<grid_of(tiles), NT, 0, stream>>>(
                                        keys_in, values_in, keys_out, values_out, args.n, shift, offsets);
                                    STEPWISE_CHECK_LAUNCH();
                                  });
    });
  });
}

}  // namespace

template <class K>
SortStage<K> radix_digits() {
  SortStage<K> stage;
  stage.name = "digits";
  stage.lesson = "4-bit digits, three kernels per pass (count per tile, scan, ranked scatter): 8 passes for 32 bits";
  stage.shape = {256, 8};
  stage.sweep = tile_grid(Threads{}, Items{});
  stage.options = {"--digit-bits"};
  stage.launch = launch<K>;
  stage.traits.algorithm = Algorithm::radix;
  stage.traits.digit_bits = kDefaultDigitBits;
  stage.traits.key_reads_per_pass = 2.0;  // the count kernel and the scatter
  stage.traits.key_writes_per_pass = 1.0;
  stage.traits.launches_per_pass = 4;  // the count, CUB's scan (two kernels), the scatter
  return stage;
}

SORT_STAGE_ROWS(radix_digits);

}  // namespace stepwise::sort
