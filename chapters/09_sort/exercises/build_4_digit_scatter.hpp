/// @file build_4_digit_scatter.hpp
/// Exercise 09-4 (README.md): a build exercise. The student writes radix stage 2's scatter kernel,
/// which places each key of a tile at its digit's offset plus its rank among the tile's keys of
/// that digit, from stage 1's split by one bit; the grader runs the chapter's GPU checks on it and
/// times it beside the chapter's stage 2.
#pragma once

#include "sort.hpp"

namespace stepwise::sort::exercises {

/// The student's radix stage 2 (build_4_digit_scatter.cu): a row like the chapter's
/// `radix_digits<K>()`, whose launcher runs the student's scatter kernel. The solution returns the
/// chapter's own row.
/// @tparam K std::uint32_t, std::int32_t, float or std::uint64_t (SORT_STAGE_ROWS instantiates each)
/// @throws NotDoneYet while the student file is untouched
template <class K>
SortStage<K> exercise_09_4_stage();

}  // namespace stepwise::sort::exercises
