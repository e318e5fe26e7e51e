// Stage 5, shared-memory privatization: each block aggregates into its own bins, then merges.
//
// Changed from stage 4: the warps' aggregated atomics go to a private copy of the bins in the
// block's shared memory, and each block adds its copy to the global bins once at the end (one
// atomic per bin it touched). A shared-memory atomic is resolved in the SM, not in an L2
// slice across the chip, and the only contention left is among the block's own warps, so the
// queues of stage 4 (every warp of the GPU on the same few addresses) become per-block
// queues. It costs K bins of zeroing and merging per block: worth it while each block has many
// more elements than bins. Bins that do not fit in one block's shared memory (65536 int bins
// are 256 KiB; an H100 block gets at most 227 KiB) cannot be privatized: the stage then runs
// stage 4's kernel on the global bins, and the run's notes say so.
#include "atomics.cuh"

namespace stepwise::atomics {
namespace {

template <class Op>
__global__ void histogram_shared(const Key* __restrict__ keys, const typename Op::Value* __restrict__ values,
                                 typename Op::Bin* __restrict__ bins, std::int64_t n, int bin_count) {
  typename Op::Bin* local = privatized_bins<Op>(bin_count);
  for_each_warp_tile<Op>(keys, values, n, [&](Key key, typename Op::Value value, bool active) {
    aggregate_into<Op>(local, key, value, active);
  });
  merge_private_bins<Op>(local, bins, bin_count);
}

/// Where the bins do not fit in shared memory: stage 4's kernel.
template <class Op>
__global__ void histogram_global(const Key* __restrict__ keys, const typename Op::Value* __restrict__ values,
                                 typename Op::Bin* __restrict__ bins, std::int64_t n) {
  for_each_warp_tile<Op>(keys, values, n, [&](Key key, typename Op::Value value, bool active) {
    aggregate_into<Op>(bins, key, value, active);
  });
}

template <class Op>
void launch(const Key* keys, const typename Op::Value* values, typename Op::Bin* bins, std::size_t n, int bin_count,
            Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  launch_privatized<Op>(histogram_shared<Op>, histogram_global<Op>, keys, values, bins, n, bin_count, shape, stream);
}

}  // namespace

template <class Op>
HistogramStage<Op> histogram_shared() {
  HistogramStage<Op> stage;
  stage.name = "shared";
  stage.lesson = "per-block bins in shared memory take the aggregated atomics; one merge per block at the end";
  stage.shape = {512};
  stage.sweep = shape_grid({256, 512, 1024});
  stage.launch = launch<Op>;
  stage.traits.privatizes_in_shared = true;
  stage.traits.atomics = AtomicsModel::per_group;
  stage.traits.detail = AnalysisDetail::shared_merge;
  return stage;
}

HISTOGRAM_STAGE_ROWS(histogram_shared);

}  // namespace stepwise::atomics
