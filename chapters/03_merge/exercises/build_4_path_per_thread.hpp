/// @file build_4_path_per_thread.hpp
/// Exercise 03-4 (README.md): a build exercise. The student writes stage 2's kernel, one Merge
/// Path search per thread and a serial merge of its VT outputs, from stage 1's one binary search
/// per element; the grader runs the chapter's merge checks on it and times it beside the chapter's
/// stage 2.
#pragma once

#include "merge.hpp"

namespace stepwise::merge::exercises {

/// The student's stage 2 (build_4_path_per_thread.cu): a row like the chapter's
/// `merge_path_per_thread<K>()`, whose launcher runs the student's kernel. The solution returns
/// the chapter's own row. K is std::int32_t or std::int64_t.
/// @throws NotDoneYet while the student file is untouched
template <class K>
MergeStage<K> exercise_03_4_stage();

}  // namespace stepwise::merge::exercises
