/// @file build_4_vector_int4.hpp
/// Exercise 00-4 (README.md): a build exercise. The student writes stage 5's kernel, a grid-stride
/// copy over 16-byte int4 vectors, from stage 4's over int2; the grader runs the chapter's GPU
/// checks on it and times it beside the chapter's stage 5.
#pragma once

#include "bandwidth.hpp"

namespace stepwise::bandwidth::exercises {

/// The student's stage 5 (build_4_vector_int4.cu): a row like the chapter's `vector_int4()`, whose
/// launcher runs the student's kernel. The solution returns the chapter's own row.
/// @throws NotDoneYet while the student file is untouched
CopyStage exercise_00_4_stage();

}  // namespace stepwise::bandwidth::exercises
