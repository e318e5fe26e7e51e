// Stage 5, two kernels: count, then scan fused with the scatter (ordered).
//
// Changed from stage 4: the one-block scan kernel is gone. The counts are few (one per block of
// a fixed grid: a few thousand at most), so in pass 2 every block simply adds up the counts of
// the blocks before it (a block-wide reduce over at most a few thousand values that sit in L2)
// and starts its scatter from there; the last block writes the kept count. One launch and one
// dependency fewer per run: a fixed cost of a few microseconds, which is what separates the
// rows at small n and vanishes at large n. The input is still read twice.
#include "compaction.cuh"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"

namespace stepwise::compaction {
namespace {

template <int NT, int VT, class Selector>
__global__ void __launch_bounds__(NT)
    scan_and_scatter_runs(Selector selector, std::size_t n, std::size_t run_tiles, const unsigned long long* run_counts,
                          unsigned long long* kept_count) {
  __shared__ typename TileRanks<NT, VT>::Storage storage;
  __shared__ unsigned long long warp_totals[32];
  __shared__ unsigned long long run_offset;
  unsigned long long before = 0;
  for (unsigned b = threadIdx.x; b < blockIdx.x; b += NT) before += run_counts[b];
  before = block_reduce(before, warp_totals, Plus<unsigned long long>{});
  if (threadIdx.x == 0) {
    run_offset = before;
    if (blockIdx.x == gridDim.x - 1) *kept_count = before + run_counts[blockIdx.x];
  }
  __syncthreads();
  scatter_run<NT, VT>(selector, n, run_tiles, run_offset, storage);
}

using Threads = IntList<128, 256>;
using Values = IntList<4, 8>;

template <class K>
void launch(const SelectArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  const unsigned blocks = resident_grid(shape);
  if (blocks > kMaxCountBlocks) throw std::invalid_argument("stage 5: more blocks than the workspace has counts for");
  workspace.require(blocks * sizeof(unsigned long long));
  auto* counts = reinterpret_cast<unsigned long long*>(workspace.data());
  dispatch_tile(
      shape, Threads{}, Values{},
      [&](auto nt, auto vt) {
        constexpr int NT = decltype(nt)::value;
        constexpr int VT = decltype(vt)::value;
        const std::size_t run_tiles = tiles_per_block(ceil_div(args.n, NT * VT), blocks);
        with_selector(args, [&](auto selector) {
          count_runs<NT, VT><<<blocks, NT, 0, stream>>>(selector, args.n, run_tiles, counts);
          STEPWISE_CHECK_LAUNCH();
          scan_and_scatter_runs<NT, VT>
              <<<blocks, NT, 0, stream>>>(selector, args.n, run_tiles, counts, args.kept_count);
          STEPWISE_CHECK_LAUNCH();
        });
      },
      "threads per block", "elements per thread");
}

}  // namespace

template <class K>
SelectStage<K> two_kernels() {
  SelectStage<K> stage;
  stage.name = "two-kernels";
  stage.lesson = "each block sums the counts before it and scatters: the scan kernel fused away";
  stage.shape = {128, 8, 8};
  stage.sweep = shape_grid(Threads::values(), Values::values(), {1, 2, 4, 8, 16});
  stage.launch = launch<K>;
  stage.traits.cost.input_passes = 2;
  stage.traits.cost.launches = 2;
  stage.traits.cost.count_bytes_per_block = 8.0;  // the sums of counts before each block hit L2
  return stage;
}

COMPACTION_STAGE_ROWS(two_kernels);

}  // namespace stepwise::compaction
