/// @file build_4_one_launch.hpp
/// Exercise 08-4 (README.md): a build exercise. The student writes stage 3's kernel, the
/// lower-bound and upper-bound merge tiles of A with B side by side in one grid, the upper tiles
/// also telling which B keys A holds, from stage 2's three sorted searches; the grader runs the
/// chapter's GPU checks on it and times it beside the chapter's stage 3.
#pragma once

#include "join.hpp"

namespace stepwise::join::exercises {

/// The student's stage 3 (build_4_one_launch.cu): a row like the chapter's `join_one_launch()`,
/// whose launcher runs the student's kernel. The solution returns the chapter's own row.
/// @throws NotDoneYet while the student file is untouched
JoinStage exercise_08_4_stage();

}  // namespace stepwise::join::exercises
