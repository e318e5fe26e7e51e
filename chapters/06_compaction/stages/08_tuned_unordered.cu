// Stage 8, tuned and unordered: stage 7's tile with stage 3's atomic in place of the look-back.
//
// Changed from stage 7: nothing but where a tile's output starts. Each block takes tile
// blockIdx.x (no ticket, no guess), loads and packs it exactly as stage 7 does (tuned_tile.cuh:
// 16-byte loads, each warp's kept elements packed in its slice of shared memory, coalesced
// copies out), and asks one atomicAdd on the kept counter for room, as stage 3 does. No tile
// waits for another, so no block ever polls; the price is stage 3's: tiles land in the order
// their atomics are served. Side by side with stage 7 it measures what order costs when all
// else is equal, and with stage 3 what the tuned tile buys an unordered compaction.
#include "compaction.cuh"
#include "host/check.hpp"
#include "host/launch.hpp"
#include "tuned_tile.cuh"

namespace stepwise::compaction {
namespace {

/// VECTORS vectors of 4 elements per thread, tile blockIdx.x per block, room from one atomic.
template <int NT, int VECTORS, class Selector>
__global__ void __launch_bounds__(NT)
    select_tuned_unordered(Selector selector, std::size_t n, unsigned long long* kept_count) {
  using Tile = TunedTile<NT, VECTORS, Selector>;
  using K = typename Selector::Key;
  __shared__ typename Tile::Storage storage;
  __shared__ unsigned tile_total;
  __shared__ unsigned long long tile_start;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * Tile::kTile;
  Element<K> x[VECTORS][4];
  unsigned kept_bits[VECTORS];
  Tile::load(selector, base, Tile::count_at(base, n), x, kept_bits);
  Tile::pack(x, kept_bits, storage);
  __syncthreads();
  if (threadIdx.x < 32) {
    const unsigned total = Tile::scan_warp_counts(storage);
    if (threadIdx.x == 0) {
      tile_total = total;
      tile_start = total != 0 ? atomicAdd(kept_count, static_cast<unsigned long long>(total)) : 0;
    }
  }
  __syncthreads();
  Tile::copy_out(selector, tile_start, tile_total, storage);
}

/// Clears the counter, then one block per tile.
template <class K>
void launch(const SelectArgs<K>& args, Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  with_tuned_tile(args, shape, [&](auto threads, auto vectors, auto selector) {
    constexpr int NT = decltype(threads)::value;
    constexpr int kVectors = decltype(vectors)::value;
    STEPWISE_CUDA_CHECK(cudaMemsetAsync(args.kept_count, 0, sizeof(*args.kept_count), stream));
    if (args.n == 0) return;
    select_tuned_unordered<NT, kVectors>
        <<<grid_of(ceil_div(args.n, NT * kVectors * 4)), NT, 0, stream>>>(selector, args.n, args.kept_count);
    STEPWISE_CHECK_LAUNCH();
  });
}

}  // namespace

template <class K>
SelectStage<K> tuned_unordered() {
  SelectStage<K> stage;
  stage.name = "tuned-unordered";
  stage.lesson = "stage 7's tile, room from one atomicAdd per tile: what order costs, all else equal";
  stage.shape = {128, 16};
  stage.sweep = tuned_sweep();
  stage.launch = launch<K>;
  stage.traits.keeps_input_order = false;
  stage.traits.cost.counter_atomics = CounterAtomics::per_tile;
  return stage;
}

COMPACTION_STAGE_ROWS(tuned_unordered);

}  // namespace stepwise::compaction
