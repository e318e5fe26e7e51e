/// @file 01_columns.hpp
/// Exercise 08-1 (README.md): a join's input columns, LB, UB, COUNTS and SCAN.
#pragma once

#include <cstdint>
#include <vector>

#include "inputs.hpp"

namespace stepwise::join::exercises {

/// The columns of the join's first two phases (inputs.hpp's JoinColumns, without the output's).
struct InputColumns {
  std::vector<std::int32_t> lower;    ///< per A row: the first B row whose key is >= its key (LB)
  std::vector<std::int32_t> upper;    ///< per A row: the first B row whose key is > its key (UB)
  std::vector<std::int32_t> counts;   ///< per object, A's rows then B's: the output rows it emits
  std::vector<std::int32_t> offsets;  ///< the exclusive scan of counts, and one more entry: the row total
};

/// Your function: the columns of @p input (two sorted key columns) joined as @p kind. An A row emits
/// its matches, or one row when it has none and the join keeps unmatched A rows (left, outer); a B
/// row emits one row when no A row matches it and the join keeps unmatched B rows (right, outer),
/// and none otherwise.
InputColumns predicted_columns(const JoinInput& input, JoinKind kind);

}  // namespace stepwise::join::exercises
