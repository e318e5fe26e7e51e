// Stage 3, Blelloch with conflict-free padding (GPU Gems 3, chapter 39).
//
// Changed from stage 2: where each node of the tree lives in shared memory, nothing else.
// Node i is stored at word i + i/32 (CONFLICT_FREE_OFFSET(n) = n >> LOG_NUM_BANKS, with
// LOG_NUM_BANKS = 5): one word of padding after every 32 nodes shifts each row of 32 by one
// bank, so the nodes a warp touches at one level, 2s apart, land in 32 different banks. Every
// level of both sweeps becomes conflict-free (--analyze: the degree of each level, padded and
// not, from tree_layout.hpp's maps), for 15 more words of shared memory. GPU Gems' longer
// variant also adds n >> (2 * LOG_NUM_BANKS), which is 0 for the 512 nodes of this tree.
// The barriers and the idle threads of stage 2 remain: the README's tables show what the
// padding buys, and how far that is from stage 1.
#include "scan.cuh"
#include "scan.hpp"

namespace stepwise::scan {
namespace {

template <class Op>
void launch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, const ScanOptions& options,
            ScanWorkspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  blelloch_scan<true, Op>(in, out, n, options, workspace, shape, stream);
}

}  // namespace

template <class Op>
ScanStage<Op> blelloch_padded() {
  ScanStage<Op> stage;
  stage.name = "blelloch-padded";
  stage.lesson = "the same tree, one padding word every 32 nodes: every level conflict-free";
  stage.shape = LaunchShape{tree::kThreads};
  stage.launch = launch<Op>;
  return stage;
}

SCAN_STAGE_ROWS(blelloch_padded);

}  // namespace stepwise::scan
