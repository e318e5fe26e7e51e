// Stage 2, warp-aggregated (unordered).
//
// Changed from stage 1: the warp votes before it touches the counter. The lanes that keep an
// element __ballot_sync, the lowest of them adds the number of voters (__popc) to the counter,
// the base it got back is broadcast with __shfl_sync, and each lane writes at base + its rank
// among the voters (common/device/warp_aggregate.cuh's warp_ticket, written in chapter 05). One
// atomic per warp instead of one per kept element: up to 32 times fewer, and the kept elements
// of a warp land next to each other, so their stores coalesce. This is what the compiler
// already does with stage 1, written out: expect the two rows to time alike. The counter is
// still one address for the whole grid, so this is not yet a memory-bound row.
#include "compaction.cuh"
#include "device/warp_aggregate.cuh"
#include "host/check.hpp"
#include "host/launch.hpp"

namespace stepwise::compaction {
namespace {

template <class Selector>
__global__ void select_warp_aggregated(Selector selector, unsigned long long* kept_count, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  // Lanes past n stay to vote: warp_ticket needs the whole warp.
  Element<typename Selector::Key> element{};
  if (i < n) element = selector.load(i);
  const std::int64_t slot = warp_ticket(kept_count, i < n && selector.keeps(element));
  if (slot >= 0) selector.store(static_cast<std::size_t>(slot), element);
}

template <class K>
void launch(const SelectArgs<K>& args, Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(args.kept_count, 0, sizeof(*args.kept_count), stream));
  if (args.n == 0) return;
  with_selector(args, [&](auto selector) {
    select_warp_aggregated<<<grid_of(ceil_div(args.n, shape.threads)), shape.threads, 0, stream>>>(
        selector, args.kept_count, args.n);
    STEPWISE_CHECK_LAUNCH();
  });
}

}  // namespace

template <class K>
SelectStage<K> warp_aggregated() {
  SelectStage<K> stage;
  stage.name = "warp-aggregated";
  stage.lesson = "ballot + popc: one atomicAdd per warp, the base broadcast by a shuffle";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512, 1024});
  stage.launch = launch<K>;
  stage.traits.keeps_input_order = false;
  stage.traits.cost.counter_atomics = CounterAtomics::per_warp;
  return stage;
}

COMPACTION_STAGE_ROWS(warp_aggregated);

}  // namespace stepwise::compaction
