// Stage 8, tuned and unordered: stage 7's tile with stage 3's atomic in place of the look-back.
//
// Changed from stage 7: nothing but where a tile's output starts. Each block takes tile
// blockIdx.x (no ticket, no guess), loads and packs it exactly as stage 7 does (tuned_tile.cuh:
// 16-byte loads, each warp's kept elements packed in its slice of shared memory, coalesced
// copies out), and asks one atomicAdd on the kept counter for room, as stage 3 does. No tile
// waits for another, so no block ever polls; the price is stage 3's: tiles land in the order
// their atomics are served. Side by side with stage 7 it measures what order costs when all
// else is equal, and with stage 3 what the tuned tile buys an unordered compaction.
#include <stdexcept>
#include <string>
#include <vector>

#include "check.hpp"
#include "compaction.cuh"
#include "dispatch.hpp"
#include "launch.hpp"
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

using Threads = IntList<128, 256>;
using Items = IntList<16, 24, 32, 40>;

/// The sweep: every compiled NT x items whose tile fits with a payload.
std::vector<LaunchShape> compiled_sweep() {
  std::vector<LaunchShape> shapes;
  for (const LaunchShape& shape : shape_grid(Threads::values(), Items::values()))
    if (tile_fits(shape.threads * shape.items, sizeof(std::int32_t) + sizeof(Payload))) shapes.push_back(shape);
  return shapes;
}

template <class K>
void launch(const SelectArgs<K>& args, Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  require_aligned(args.keys, 16);
  require_aligned(args.values, 16);
  require_aligned(args.flags, 4);
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(args.kept_count, 0, sizeof(*args.kept_count), stream));
  dispatch(shape.threads, Threads{}, "threads per block", [&](auto threads) {
    dispatch(shape.items, Items{}, "elements per thread", [&](auto items) {
      constexpr int NT = decltype(threads)::value;
      constexpr int kVectors = decltype(items)::value / 4;
      if (args.n == 0) return;
      with_selector(args, [&](auto selector) {
        constexpr std::size_t kElementBytes = sizeof(K) + (decltype(selector)::kPayload ? sizeof(Payload) : 0);
        if constexpr (!tile_fits(NT * kVectors * 4, kElementBytes)) {
          throw std::invalid_argument("tile " + std::to_string(NT) + "x" + std::to_string(kVectors * 4) +
                                      " is not compiled: its elements do not fit the static shared memory");
        } else {
          select_tuned_unordered<NT, kVectors>
              <<<grid_of(ceil_div(args.n, NT * kVectors * 4)), NT, 0, stream>>>(selector, args.n, args.kept_count);
          STEPWISE_CHECK_LAUNCH();
        }
      });
    });
  });
}

}  // namespace

template <class K>
SelectStage<K> tuned_unordered() {
  SelectStage<K> stage;
  stage.name = "tuned-unordered";
  stage.lesson = "stage 7's tile, room from one atomicAdd per tile: what order costs, all else equal";
  stage.shape = {128, 16};
  stage.sweep = compiled_sweep();
  stage.launch = launch<K>;
  return stage;
}

template SelectStage<std::int32_t> tuned_unordered<std::int32_t>();
template SelectStage<float> tuned_unordered<float>();

}  // namespace stepwise::compaction
