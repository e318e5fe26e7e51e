// Stage 2, Blelloch: the work-efficient tree.
//
// Changed from stage 1: each block of 256 threads scans 512 elements with Blelloch's
// up-sweep/down-sweep tree (blelloch_block_scan in scan.cuh), O(n) operations where stage 1
// does O(n log n), and each thread owns two elements, so the same data needs half the blocks;
// the recursion over the block totals is stage 1's. Less work is not less time. Three costs
// that stage 1 does not pay:
//   - bank conflicts: at the level of stride s consecutive threads touch nodes 2s apart, so
//     the 32 accesses of a warp fall into 32 / gcd(2s, 32) banks: 2-way at s = 1, 16-way at
//     s = 8 and 16 (--analyze prints every level, computed from tree_layout.hpp's maps);
//   - barriers: 2 x log2(512) = 18 levels, each a barrier and a shared-memory round trip the
//     whole block waits for, against stage 1's 8 for its 256 elements;
//   - idle threads: the level of stride s has 256 / s threads at work, so near the root one
//     warp works (partly) while the other seven wait at the barrier.
// The README's tables measure it slower than stage 1. Stage 3 removes the conflicts alone,
// which tells how much of the gap they are; the later stages drop the tree.
#include "scan.cuh"
#include "scan.hpp"

namespace stepwise::scan {
namespace {

template <class Op>
void launch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, const ScanOptions& options,
            ScanWorkspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  blelloch_scan<false, Op>(in, out, n, options, workspace, shape, stream);
}

}  // namespace

template <class Op>
ScanStage<Op> blelloch() {
  ScanStage<Op> stage;
  stage.name = "blelloch";
  stage.lesson = "work-efficient up-sweep/down-sweep per block: O(n) operations, but up to 16-way bank conflicts";
  stage.shape = LaunchShape{tree::kThreads};
  stage.launch = launch<Op>;
  return stage;
}

SCAN_STAGE_ROWS(blelloch);

}  // namespace stepwise::scan
