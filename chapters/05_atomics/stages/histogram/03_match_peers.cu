// Stage 3, peers by __match_any_sync: the same peer masks in one instruction.
//
// Changed from stage 2: the ballot loop, one shuffle and one ballot per distinct key in the
// warp, becomes __match_any_sync (sm_70 and later), which returns each lane the mask of the
// lanes holding its key. The loop's cost grew with the number of distinct keys (32 trips for
// random keys); the match is one instruction whatever the keys, so the warps whose keys are
// all different, the ones aggregation cannot help, lose less. The reduction and the atomics
// are stage 2's.
#include "atomics.cuh"

namespace stepwise::atomics {
namespace {

template <class Op>
__global__ void histogram_match_peers(const Key* __restrict__ keys, const typename Op::Value* __restrict__ values,
                                      typename Op::Bin* __restrict__ bins, std::int64_t n) {
  for_each_warp_tile<Op>(keys, values, n, [&](Key key, typename Op::Value value, bool active) {
    const std::uint32_t peers = peers_by_match(key, kFullWarp);
    typename Op::Value sum = 0;
#pragma unroll
    for (int source = 0; source < kWarpLanes; ++source) {
      const typename Op::Value other = shuffle_index(value, source);
      if ((peers & lane_bit(source)) != 0) sum += other;
    }
    if (active && lane_id() == leader_of(peers)) atomic_update<Op>(bins + key, sum);
  });
}

template <class Op>
void launch(const Key* keys, const typename Op::Value* values, typename Op::Bin* bins, std::size_t n, int bin_count,
            Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  const unsigned grid = tile_grid(n, shape);
  zero_bins(bins, bin_count, stream);
  if (n == 0) return;
  histogram_match_peers<Op><<<grid, shape.threads, 0, stream>>>(keys, values, bins, static_cast<std::int64_t>(n));
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class Op>
HistogramStage<Op> histogram_match_peers() {
  HistogramStage<Op> stage;
  stage.name = "match-peers";
  stage.lesson = "__match_any_sync finds the peers in one instruction instead of one ballot per distinct key";
  stage.shape = {256, 0, 8};
  stage.sweep = shape_grid({256, 512}, {}, {2, 4, 8});
  stage.launch = launch<Op>;
  stage.traits.atomics = AtomicsModel::per_group;
  stage.traits.detail = AnalysisDetail::match;
  return stage;
}

HISTOGRAM_STAGE_ROWS(histogram_match_peers);

}  // namespace stepwise::atomics
