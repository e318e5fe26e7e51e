// Stage 6, adaptive: a warp that finds its keys (nearly) all distinct stops aggregating for a while.
//
// Changed from stage 5: aggregation only pays where keys repeat inside a warp. With random
// keys over many bins nearly every warp holds 32 distinct keys; the match and the sub-tree
// then cost instructions and save no atomic. So after each match the warp counts its groups:
// when they are at least 3/4 of its lanes (aggregation would save at most a quarter of the
// atomics), every lane does its own atomic, and the warp skips the match for its next
// kSkipTiles tiles, then looks again. The decision comes from a vote, so it is the same in
// every lane and the warp never diverges over it. Correlated keys (runs, few bins) are found
// at every look and keep stage 5's aggregation; random keys pay one match every
// kSkipTiles + 1 tiles. Privatization is stage 5's: in shared memory where the bins fit,
// else on the global bins.
#include "atomics.cuh"

namespace stepwise::atomics {
namespace {

/// Tiles a warp runs without aggregation after one where it did not pay.
constexpr int kSkipTiles = 8;

/// One tile into @p bins: aggregated (stage 5's sub-tree), or plain atomics while @p skip
/// counts down. @p skip is the warp's: every lane holds the same value.
template <class Op>
__device__ __forceinline__ void adaptive_tile(typename Op::Bin* bins, Key key, typename Op::Value value, bool active,
                                              int& skip) {
  if (skip > 0) {
    --skip;
    if (active) atomic_update<Op>(bins + key, value);
    return;
  }
  const std::uint32_t peers = peers_by_match(key, kFullWarp);
  const int lanes = popcount32(__ballot_sync(kFullWarp, active));
  const int groups = popcount32(__ballot_sync(kFullWarp, active && lane_id() == leader_of(peers)));
  if (4 * groups >= 3 * lanes) {
    skip = kSkipTiles;
    if (active) atomic_update<Op>(bins + key, value);
    return;
  }
  const typename Op::Value sum = subtree_reduce(peers, value, Plus<Op>{});
  if (active && lane_id() == leader_of(peers)) atomic_update<Op>(bins + key, sum);
}

template <class Op>
__global__ void histogram_adaptive_shared(const Key* __restrict__ keys, const typename Op::Value* __restrict__ values,
                                          typename Op::Bin* __restrict__ bins, std::int64_t n, int bin_count) {
  typename Op::Bin* local = privatized_bins<Op>(bin_count);
  int skip = 0;
  for_each_warp_tile<Op>(keys, values, n, [&](Key key, typename Op::Value value, bool active) {
    adaptive_tile<Op>(local, key, value, active, skip);
  });
  merge_private_bins<Op>(local, bins, bin_count);
}

template <class Op>
__global__ void histogram_adaptive_global(const Key* __restrict__ keys, const typename Op::Value* __restrict__ values,
                                          typename Op::Bin* __restrict__ bins, std::int64_t n) {
  int skip = 0;
  for_each_warp_tile<Op>(keys, values, n, [&](Key key, typename Op::Value value, bool active) {
    adaptive_tile<Op>(bins, key, value, active, skip);
  });
}

template <class Op>
void launch(const Key* keys, const typename Op::Value* values, typename Op::Bin* bins, std::size_t n, int bin_count,
            Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  launch_privatized<Op>(histogram_adaptive_shared<Op>, histogram_adaptive_global<Op>, keys, values, bins, n, bin_count,
                        shape, stream);
}

}  // namespace

template <class Op>
HistogramStage<Op> histogram_adaptive() {
  HistogramStage<Op> stage;
  stage.name = "adaptive";
  stage.lesson = "a warp whose keys are (nearly) all distinct skips the match and aggregation for 8 tiles";
  stage.shape = {512};
  stage.sweep = shape_grid({256, 512, 1024});
  stage.launch = launch<Op>;
  stage.traits.privatizes_in_shared = true;
  stage.traits.atomics = AtomicsModel::adaptive;
  stage.traits.detail = AnalysisDetail::adaptive_skips;
  return stage;
}

HISTOGRAM_STAGE_ROWS(histogram_adaptive);

}  // namespace stepwise::atomics
