/// @file build_4_rts_shuffle.hpp
/// Exercise 02-4 (README.md): a build exercise. The student writes stage 6's block scan, which
/// scans the block's thread totals with warp shuffles and one barrier, from stage 5's shared-memory
/// ladder; the grader runs the chapter's GPU checks on the student's stage and times it beside the
/// chapter's stage 6.
#pragma once

#include "scan.hpp"

namespace stepwise::scan::exercises {

/// The student's stage 6 (build_4_rts_shuffle.cu): a row like the chapter's `rts_shuffle<Op>()`,
/// whose launcher runs reduce-then-scan with the student's block scan. The solution returns the
/// chapter's own row.
/// @tparam Op WrappingAdd, FloatAdd or ComposeAffine (SCAN_STAGE_ROWS instantiates all three)
/// @throws NotDoneYet while the student file is untouched
template <class Op>
ScanStage<Op> exercise_02_4_stage();

}  // namespace stepwise::scan::exercises
