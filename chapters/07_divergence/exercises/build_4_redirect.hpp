/// @file build_4_redirect.hpp
/// Exercise 07-4 (README.md): a build exercise. The student writes stage 3's kernels, which label
/// each element with its path and then run thread t on element IND[t] once the (path, index) pairs
/// are sorted by path, from stage 2's thread per element; the grader runs the chapter's GPU checks
/// on it and times it beside the chapter's stage 3.
#pragma once

#include "divergence.hpp"

namespace stepwise::divergence::exercises {

/// The student's stage 3 (build_4_redirect.cu): a row like the chapter's `redirect<W>()`, whose
/// launcher runs the student's kernels around the chapter's sort. The solution returns the
/// chapter's own row.
/// @tparam W Synthetic or Mutation (DIVERGENCE_STAGE_ROWS instantiates both)
/// @throws NotDoneYet while the student file is untouched
template <class W>
DivergeStage<W> exercise_07_4_stage();

}  // namespace stepwise::divergence::exercises
