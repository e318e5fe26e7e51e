// Exercise 09-4: build radix stage 2's scatter from stage 1's split (README.md, "09-4").
//
// Stage 2's lesson (stages/radix/02_digits.cu): sort by a digit of 4 bits a pass instead of one
// bit, so 32-bit keys take 8 passes instead of 32. A pass is three steps. Each tile of NT x VT
// keys counts its 16 digits (tile_digit_counts, written); one exclusive scan of all the counts,
// laid out digit-major (all the tiles' counts of digit 0, then of digit 1, ...), gives each
// (digit, tile) the first output place of its keys (CUB's scan, written); and the scatter, yours,
// places each key at that offset plus its rank among the tile's keys of its digit. Equal digits
// keep their input order, so the sort stays stable.
//
// Start from stage 1 (stages/radix/01_one_bit.cu), whose scatter places a key by the scan of one
// bit: a 0 goes to its count of earlier zeros, a 1 after every zero. Here there are 16 (or 256)
// bins, and the rank comes from TileDigitRanks (radix.cuh): every thread of the block calls
// Ranks::rank once per round of NT keys and gets its key's rank among the keys of its digit in
// the tile so far. Write scatter_ranked below: the launcher and the row are written. Then delete
// the first line of exercise_09_4_stage() and grade it on a GPU with
// `ctest --test-dir build -R exercise-09-4 --output-on-failure`.
#include "build_4_digit_scatter.hpp"
#include "host/dispatch.hpp"
#include "host/exercise.hpp"
#include "radix_passes.cuh"

namespace stepwise::sort::exercises {
namespace {

/// Places each key (and value, when @p values_in is not null) of each tile of NT x VT keys at
/// @p offsets[d * gridDim.x + blockIdx.x] plus its rank among the tile's keys of digit d, where d
/// is the key's digit at bit @p shift (`digit(ordered_bits(key), shift, ilog2(RADIX))`). Thread t
/// of a tile loads keys t, t + NT, t + 2 NT, ... (rounds of NT consecutive keys, so each round's
/// loads coalesce); the last tile may run past @p n.
template <int NT, int VT, int RADIX, class K>
__global__ void __launch_bounds__(NT)
    scatter_ranked(const K* __restrict__ keys_in, const Value* __restrict__ values_in, K* __restrict__ keys_out,
                   Value* __restrict__ values_out, std::size_t n, int shift,
                   const unsigned long long* __restrict__ offsets) {
  // TODO: the tile's shared TileDigitRanks<NT, RADIX>::Storage, begun once; then VT rounds: load
  // the key of this round (if any), its digit (RADIX for a thread past n), its rank from
  // Ranks::rank (called by every thread), and the store of the key (and value) at its place.
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
SortStage<K> exercise_09_4_stage() {
  // Delete the next line once scatter_ranked is written: until then the grader stops here.
  not_done_yet("09-4", "scatter_ranked", __FILE__);
  SortStage<K> stage;
  stage.name = "digits";
  stage.lesson = "4-bit digits, three kernels per pass (count per tile, scan, ranked scatter): 8 passes for 32 bits";
  stage.shape = {256, 8};
  stage.sweep = tile_grid(Threads{}, Items{});
  stage.options = {"--digit-bits"};
  stage.launch = launch<K>;
  stage.traits.algorithm = Algorithm::radix;
  stage.traits.digit_bits = kDefaultDigitBits;
  stage.traits.key_reads_per_pass = 2.0;
  stage.traits.key_writes_per_pass = 1.0;
  stage.traits.launches_per_pass = 4;
  return stage;
}

SORT_STAGE_ROWS(exercise_09_4_stage);

}  // namespace stepwise::sort::exercises
