// Stage 4, count - scan - scatter (Billeter, Olsson and Assarsson, 2009): ordered, three kernels.
//
// Changed from stage 3: no atomic at all, and the output keeps the input order. A fixed grid
// (blocks_per_sm blocks on every SM) splits the input into one contiguous run of tiles per
// block, and each block loops over its run (the "loops over subsequences" of the source study;
// chapter 00 measured what such loops cost a copy). Pass 1 counts the kept elements of every
// run, reading only what the test needs (the keys, or the flag bytes); a one-block kernel scans
// the counts into each run's first output position (common's BlockScan); pass 3 reads the run
// again and writes its kept elements in order from there, tile by tile (TileRanks). This is
// the two-phase decomposition of chapters 02 and 03 applied to compaction: split the work
// into equal runs, do a cheap global step between the passes, and let every block work alone.
// The price is the second read of the input (for the predicate form, 2n + Pn instead of
// n + Pn) and two extra launches.
#include "compaction.cuh"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"

namespace stepwise::compaction {
namespace {

/// Pass 2: the exclusive scan of the @p blocks run counts, in place, by one block of kScanThreads;
/// the total is the kept count.
constexpr int kScanThreads = 1024;
__global__ void __launch_bounds__(kScanThreads)
    scan_run_counts(unsigned long long* counts, unsigned blocks, unsigned long long* kept_count) {
  using Scan = BlockScan<kScanThreads, Plus<unsigned long long>>;
  __shared__ typename Scan::Storage storage;
  unsigned long long carry = 0;
  for (unsigned first = 0; first < blocks; first += kScanThreads) {
    const unsigned i = first + threadIdx.x;
    const unsigned long long count = i < blocks ? counts[i] : 0ull;
    unsigned long long total = 0;
    const unsigned long long prefix = Scan::exclusive_scan(count, total, storage, Plus<unsigned long long>{});
    if (i < blocks) counts[i] = carry + prefix;
    carry += total;
    __syncthreads();  // storage is reused by the next round
  }
  if (threadIdx.x == 0) *kept_count = carry;
}

/// Pass 3.
template <int NT, int VT, class Selector>
__global__ void __launch_bounds__(NT)
    scatter_runs(Selector selector, std::size_t n, std::size_t run_tiles, const unsigned long long* run_offsets) {
  __shared__ typename TileRanks<NT, VT>::Storage storage;
  scatter_run<NT, VT>(selector, n, run_tiles, run_offsets[blockIdx.x], storage);
}

using Threads = IntList<128, 256>;
using Values = IntList<4, 8>;

template <class K>
void launch(const SelectArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  const unsigned blocks = resident_grid(shape);
  if (blocks > kMaxCountBlocks) throw std::invalid_argument("stage 4: more blocks than the workspace has counts for");
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
          scan_run_counts<<<1, kScanThreads, 0, stream>>>(counts, blocks, args.kept_count);
          STEPWISE_CHECK_LAUNCH();
          scatter_runs<NT, VT><<<blocks, NT, 0, stream>>>(selector, args.n, run_tiles, counts);
          STEPWISE_CHECK_LAUNCH();
        });
      },
      "threads per block", "elements per thread");
}

}  // namespace

template <class K>
SelectStage<K> count_scan_scatter() {
  SelectStage<K> stage;
  stage.name = "count-scan-scatter";
  stage.lesson = "Billeter: count each block's run, scan the counts, scatter in order; 3 kernels, input read twice";
  stage.shape = {128, 8, 8};
  stage.sweep = shape_grid(Threads::values(), Values::values(), {1, 2, 4, 8, 16});
  stage.launch = launch<K>;
  stage.traits.cost.input_passes = 2;
  stage.traits.cost.launches = 3;
  stage.traits.cost.count_bytes_per_block = 3.0 * 8.0;  // counts written, read and rewritten, read
  return stage;
}

COMPACTION_STAGE_ROWS(count_scan_scatter);

}  // namespace stepwise::compaction
