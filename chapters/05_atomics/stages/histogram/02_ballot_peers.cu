// Stage 2, peers by a ballot loop: one atomic per distinct key per warp (the talk's stage 1).
//
// Changed from stage 1: before the atomic, the lanes of the warp find the lanes that share
// their key. The lowest unassigned lane broadcasts its key (__shfl_sync), the lanes holding it
// vote (__ballot_sync): that ballot is their peer mask, and they leave the loop. The loop runs
// once per distinct key in the warp. Then each group's lowest lane (the leader) collects the
// group's values, every lane broadcasting its value in turn (32 shuffles), adds those of its
// peers in lane order, and does the group's one atomic. A warp whose 32 keys are one key does
// 1 atomic instead of 32; a warp of 32 distinct keys still does 32, plus a 32-trip loop and
// 32 shuffles: aggregation pays only where keys repeat inside the warp. The talk's loop let
// lanes leave while the others still shuffled over the whole warp, which Volta's independent
// scheduling does not allow; here every call's mask is the lanes still in the loop
// (common/device/warp_aggregate.cuh).
#include "atomics.cuh"

namespace stepwise::atomics {
namespace {

template <class Op>
__global__ void histogram_ballot_peers(const Key* __restrict__ keys, const typename Op::Value* __restrict__ values,
                                       typename Op::Bin* __restrict__ bins, std::int64_t n) {
  for_each_warp_tile<Op>(keys, values, n, [&](Key key, typename Op::Value value, bool active) {
    const std::uint32_t peers = peers_by_ballot_loop(key, kFullWarp);
    // The leader adds its peers' values in lane order: every lane's value is broadcast in turn.
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
  histogram_ballot_peers<Op><<<grid, shape.threads, 0, stream>>>(keys, values, bins, static_cast<std::int64_t>(n));
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class Op>
HistogramStage<Op> histogram_ballot_peers() {
  HistogramStage<Op> stage;
  stage.name = "ballot-peers";
  stage.lesson = "the talk's ballot loop finds each key's lanes; the leader sums them: one atomic per key per warp";
  stage.shape = {256, 0, 8};
  stage.sweep = shape_grid({256, 512}, {}, {2, 4, 8});
  stage.launch = launch<Op>;
  stage.traits.atomics = AtomicsModel::per_group;
  stage.traits.detail = AnalysisDetail::ballot_loop;
  return stage;
}

HISTOGRAM_STAGE_ROWS(histogram_ballot_peers);

}  // namespace stepwise::atomics
