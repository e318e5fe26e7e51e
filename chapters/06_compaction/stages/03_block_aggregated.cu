// Stage 3, block-aggregated (unordered across tiles, ordered within one).
//
// Changed from stage 2: a block takes a tile of NT x VT elements and counts the whole tile
// before it touches the counter. Each warp ballots once per step, the block scans the step
// and warp counts in shared memory (TileRanks, compaction.cuh), and one thread adds the tile's
// total to the global counter: one atomic per NT*VT elements (per 2048 at 256 x 8) instead of
// one per warp. The counter stops being the bottleneck, and the row becomes a streaming one:
// VT strided loads in flight per thread, each warp's kept elements of a step stored to
// consecutive addresses. The tiles still land in the order their atomics are served, so the
// output is ordered within each tile and shuffled tile by tile.
#include "compaction.cuh"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"

namespace stepwise::compaction {
namespace {

template <int NT, int VT, class Selector>
__global__ void __launch_bounds__(NT)
    select_block_aggregated(Selector selector, unsigned long long* kept_count, std::size_t n) {
  using Ranks = TileRanks<NT, VT>;
  constexpr int kTile = NT * VT;
  __shared__ typename Ranks::Storage storage;
  __shared__ unsigned long long tile_base;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTile;
  const int count = n - base < kTile ? static_cast<int>(n - base) : kTile;
  Element<typename Selector::Key> x[VT];
  bool kept[VT];
  unsigned ballots[VT], offsets[VT];
  load_tile<NT, VT>(selector, base, count, x, kept);
  ballot_steps<VT>(kept, ballots, offsets);
  const unsigned total = Ranks::exclusive_offsets(offsets, storage);
  if (threadIdx.x == 0) tile_base = total != 0 ? atomicAdd(kept_count, static_cast<unsigned long long>(total)) : 0;
  __syncthreads();
  scatter_tile<VT>(selector, tile_base, offsets, ballots, kept, x);
}

using Threads = IntList<128, 256, 512>;
using Values = IntList<8, 16>;

template <class K>
void launch(const SelectArgs<K>& args, Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(args.kept_count, 0, sizeof(*args.kept_count), stream));
  dispatch_tile(
      shape, Threads{}, Values{},
      [&](auto nt, auto vt) {
        constexpr int NT = decltype(nt)::value;
        constexpr int VT = decltype(vt)::value;
        if (args.n == 0) return;
        with_selector(args, [&](auto selector) {
          select_block_aggregated<NT, VT>
              <<<grid_of(ceil_div(args.n, NT * VT)), NT, 0, stream>>>(selector, args.kept_count, args.n);
          STEPWISE_CHECK_LAUNCH();
        });
      },
      "threads per block", "elements per thread");
}

}  // namespace

template <class K>
SelectStage<K> block_aggregated() {
  SelectStage<K> stage;
  stage.name = "block-aggregated";
  stage.lesson = "a tile counted by ballots and a block scan: one atomicAdd per NT*VT elements";
  stage.shape = {256, 8};
  stage.sweep = tile_grid(Threads{}, Values{});
  stage.launch = launch<K>;
  stage.traits.keeps_input_order = false;
  stage.traits.cost.counter_atomics = CounterAtomics::per_tile;
  stage.traits.diagram = Diagram::strided_tile;
  return stage;
}

COMPACTION_STAGE_ROWS(block_aggregated);

}  // namespace stepwise::compaction
