// Radix stage 3, block-local ranking: the scatter writes runs of equal digits together.
//
// Changed from stage 2: the scatter first ranks the whole tile by digit (the same rounds of
// __match_any_sync and warp counters), then sorts the tile locally by its digit in shared
// memory, and only then writes it out: thread t writes the tile's sorted keys t, t + NT, ...,
// so consecutive threads write consecutive places of one digit's run in the output. In stage 2
// the 32 keys of a warp go to up to 16 places, each a separate 32-byte sector write; here a
// warp's writes fall in one or two runs, and the tile's 16 runs (4-bit digits) are each written
// with whole sectors. The keys are read as often as in stage 2; what changes is the write
// traffic the scattered stores wasted, which ncu's store sectors per request measure. Same passes, same counts and scan
// as stage 2.
#include "host/dispatch.hpp"
#include "radix_passes.cuh"

namespace stepwise::sort {
namespace {

/// Ranks each tile by digit, sorts it by digit in shared memory, and writes it out in runs.
template <int NT, int VT, int RADIX, class K>
__global__ void __launch_bounds__(NT)
    scatter_runs(const K* __restrict__ keys_in, const Value* __restrict__ values_in, K* __restrict__ keys_out,
                 Value* __restrict__ values_out, std::size_t n, int shift,
                 const unsigned long long* __restrict__ offsets) {
  using Tile = DigitTile<NT, VT, RADIX, K>;
  __shared__ typename Tile::Storage storage;
  Tile tile;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * NT * VT;
  const int tile_count = static_cast<int>(n - first < static_cast<std::size_t>(NT) * VT ? n - first : NT * VT);
  tile.load_and_rank(keys_in, values_in, first, tile_count, shift, storage);
  if (threadIdx.x < RADIX)  // the tile's first key of digit d goes where the scan of the counts says
    storage.output_base[threadIdx.x] =
        offsets[static_cast<std::size_t>(threadIdx.x) * gridDim.x + blockIdx.x] - storage.tile_start[threadIdx.x];
  tile.write(keys_out, values_out, values_in != nullptr, shift, storage);
}

using Threads = IntList<256>;
using Items = IntList<4, 8>;
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
                                    scatter_runs<NT, VT, RADIX><<<grid_of(tiles), NT, 0, stream>>>(
                                        keys_in, values_in, keys_out, values_out, args.n, shift, offsets);
                                    STEPWISE_CHECK_LAUNCH();
                                  });
    });
  });
}

}  // namespace

template <class K>
SortStage<K> radix_block_ranked() {
  SortStage<K> stage;
  stage.name = "block-ranked";
  stage.lesson = "each tile sorted by its digit in shared memory first, so each warp writes runs of one digit";
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

SORT_STAGE_ROWS(radix_block_ranked);

}  // namespace stepwise::sort
