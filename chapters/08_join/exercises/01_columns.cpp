// Exercise 08-1: a join's LB, UB, COUNTS and SCAN (README.md, "08-1").
//
// The lesson: a sort-merge join is a merge. Each A row's matches are a range of B, B[LB, UB),
// found by two sorted searches (the lower and the upper bound of its key); UB - LB is how many
// rows it emits, or 1 for an unmatched row the join keeps. B's rows are objects too: in a right
// or outer join each unmatched B row emits one row after all of A's. The exclusive scan of the
// counts says where each object's rows start; its last entry is the join's size, known before a
// single pair is written.
//
// Predict first, by hand: A = 1 1 3 4 4 4 7, B = 1 3 3 3 5 7 7 8. LB, UB and the counts of A's
// rows for the inner join; B's counts and the scan for the outer join. Then write the function.
// Grade it with `ctest --test-dir build -L exercise-08`.
#include "01_columns.hpp"

#include "host/exercise.hpp"

namespace stepwise::join::exercises {

InputColumns predicted_columns([[maybe_unused]] const JoinInput& input, [[maybe_unused]] JoinKind kind) {
  // TODO: the bounds of each A key in B, whether each B key is in A, the counts per object and their scan.
  throw NotDoneYet("08-1", "predicted_columns", __FILE__);
}

}  // namespace stepwise::join::exercises
