// Stage 1, naive: one global atomic per element.
//
// Every thread adds its element's value to bins[key] with one atomic. Atomics on different
// addresses proceed in parallel (the L2 slices each own a share of the addresses), but atomics
// on one address cannot: the L2 applies them one after another. When the keys of a warp agree
// (runs of equal keys, few bins, a skewed distribution) the 32 lanes' atomics queue on a few
// addresses, and every warp of the GPU joins the same queues. An operation without a native
// atomic (DoubleCas) is worse still: each lane loops on atomicCAS until its swap wins, and the
// lanes of a warp that share an address win one per trip around the loop. The compiler cannot
// help: it merges the atomics of a warp only when the address is the same in every lane (the
// ticket table shows that), and here each lane computes its own. Stages 2-4 merge them by hand.
#include "atomics.cuh"

namespace stepwise::atomics {
namespace {

template <class Op>
__global__ void histogram_each(const Key* __restrict__ keys, const typename Op::Value* __restrict__ values,
                               typename Op::Bin* __restrict__ bins, std::int64_t n) {
  for_each_warp_tile<Op>(keys, values, n, [&](Key key, typename Op::Value value, bool active) {
    if (active) atomic_update<Op>(bins + key, value);
  });
}

template <class Op>
void launch(const Key* keys, const typename Op::Value* values, typename Op::Bin* bins, std::size_t n, int bin_count,
            Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  const unsigned grid = tile_grid(n, shape);
  zero_bins(bins, bin_count, stream);
  if (n == 0) return;
  histogram_each<Op><<<grid, shape.threads, 0, stream>>>(keys, values, bins, static_cast<std::int64_t>(n));
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class Op>
HistogramStage<Op> histogram_naive() {
  HistogramStage<Op> stage;
  stage.name = "naive";
  stage.lesson = "one global atomic per element: lanes with equal keys queue on one address";
  stage.shape = {256, 0, 8};
  stage.sweep = shape_grid({256, 512}, {}, {2, 4, 8});
  stage.launch = launch<Op>;
  return stage;
}

HISTOGRAM_STAGE_ROWS(histogram_naive);

}  // namespace stepwise::atomics
