// Stage 4, the sub-tree reduction: every group of peers reduced in parallel (the talk's stage 2).
//
// Changed from stage 3: the leader no longer reads all 32 lanes' values one shuffle at a
// time. Each lane adds the value of its nearest peer above it, the lanes that have been added
// drop out (a ballot), and the step repeats: every group of peers is summed as a binary tree
// over its lanes, all groups at once, in ceil(log2(largest group)) rounds of one shuffle (5
// for a warp of one key, none for a warp of distinct keys) instead of 32. The atomics are
// stage 3's: one per distinct key per warp; the instructions around them shrink.
#include "atomics.cuh"

namespace stepwise::atomics {
namespace {

template <class Op>
__global__ void histogram_subtree(const Key* __restrict__ keys, const typename Op::Value* __restrict__ values,
                                  typename Op::Bin* __restrict__ bins, std::int64_t n) {
  for_each_warp_tile<Op>(keys, values, n, [&](Key key, typename Op::Value value, bool active) {
    aggregate_into<Op>(bins, key, value, active);
  });
}

template <class Op>
void launch(const Key* keys, const typename Op::Value* values, typename Op::Bin* bins, std::size_t n, int bin_count,
            Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  const unsigned grid = tile_grid(n, shape);
  zero_bins(bins, bin_count, stream);
  if (n == 0) return;
  histogram_subtree<Op><<<grid, shape.threads, 0, stream>>>(keys, values, bins, static_cast<std::int64_t>(n));
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class Op>
HistogramStage<Op> histogram_subtree() {
  HistogramStage<Op> stage;
  stage.name = "subtree";
  stage.lesson = "the talk's sub-tree: all peer groups reduced at once in log2(group) shuffles, not 32";
  stage.shape = {256, 0, 8};
  stage.sweep = shape_grid({256, 512}, {}, {2, 4, 8});
  stage.launch = launch<Op>;
  stage.traits.atomics = AtomicsModel::per_group;
  stage.traits.detail = AnalysisDetail::subtree_rounds;
  return stage;
}

HISTOGRAM_STAGE_ROWS(histogram_subtree);

}  // namespace stepwise::atomics
