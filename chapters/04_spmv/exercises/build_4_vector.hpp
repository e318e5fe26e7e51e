/// @file build_4_vector.hpp
/// Exercise 04-4 (README.md): a build exercise. The student writes stage 3's kernel, in which a
/// group of L lanes of a warp shares a row and reads its nonzeros side by side, from stage 1's
/// thread per row; the grader runs the chapter's GPU checks on it and times it beside the chapter's
/// stage 3.
#pragma once

#include "spmv.hpp"

namespace stepwise::spmv::exercises {

/// The student's stage 3 (build_4_vector.cu): a row like the chapter's `spmv_vector<T>()`, whose
/// launcher runs the student's kernel. The solution returns the chapter's own row.
/// @tparam T float or double (SPMV_STAGE_ROWS instantiates both)
/// @throws NotDoneYet while the student file is untouched
template <class T>
SpmvStage<T> exercise_04_4_stage();

}  // namespace stepwise::spmv::exercises
