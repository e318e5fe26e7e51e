/// @file build_4_warp_aggregated.hpp
/// Exercise 06-4 (README.md): a build exercise. The student writes stage 2's kernel, in which each
/// warp votes and makes one atomicAdd for all its kept elements, from stage 1's one atomicAdd per
/// kept element; the grader runs the chapter's GPU checks on it and times it beside the chapter's
/// stage 2.
#pragma once

#include "compaction.hpp"

namespace stepwise::compaction::exercises {

/// The student's stage 2 (build_4_warp_aggregated.cu): a row like the chapter's `warp_aggregated<K>()`,
/// whose launcher runs the student's kernel. The solution returns the chapter's own row.
/// @tparam K std::int32_t or float (COMPACTION_STAGE_ROWS instantiates both)
/// @throws NotDoneYet while the student file is untouched
template <class K>
SelectStage<K> exercise_06_4_stage();

}  // namespace stepwise::compaction::exercises
