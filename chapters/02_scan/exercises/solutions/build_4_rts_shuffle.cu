// Exercise 02-4, solved: the solution is the chapter's stage 6 itself (stages/06_rts_shuffle.cu),
// which runs reduce-then-scan with common's BlockScan (common/device/block.cuh) in place of stage
// 5's LadderBlockScan: warp_inclusive_scan's five shuffle_up steps (common/device/warp.cuh), lane 31
// of each warp posting the warp's total, one __syncthreads, every thread folding the totals of the
// warps before its own, and its exclusive value the lane below's inclusive one (shuffle_up by 1).
// Read both.
#include "build_4_rts_shuffle.hpp"

namespace stepwise::scan::exercises {

template <class Op>
ScanStage<Op> exercise_02_4_stage() {
  return rts_shuffle<Op>();
}

SCAN_STAGE_ROWS(exercise_02_4_stage);

}  // namespace stepwise::scan::exercises
