/// @file build_4_warp_shuffle.hpp
/// Exercise 01-4 (README.md): a build exercise. The student writes stage 9's kernel, whose block
/// sums its threads' values with warp shuffles and one barrier, from stage 8's shared-memory tree;
/// the grader runs the chapter's GPU checks on it and times it beside the chapter's stage 9.
#pragma once

#include "reduction.hpp"

namespace stepwise::reduction::exercises {

/// The student's stage 9 (build_4_warp_shuffle.cu): a row like the chapter's `warp_shuffle<T>()`,
/// whose launcher runs the student's kernel. The solution returns the chapter's own row.
/// @tparam T std::uint32_t or float (REDUCTION_STAGE_ROWS instantiates both)
/// @throws NotDoneYet while the student file is untouched
template <class T>
ReduceStage<T> exercise_01_4_stage();

}  // namespace stepwise::reduction::exercises
