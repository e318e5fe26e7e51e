// Exercise 03-1: the Merge Path split of a diagonal (README.md, "03-1").
//
// The lesson: the outputs 0 .. d-1 of a merge are the steps of its path before the cross diagonal
// i + j = d. On that diagonal, the point (i, d - i) lies before the crossing when the merge takes
// A[i - 1] before B[d - i]; the answer is monotone in i, so a binary search finds the crossing
// without merging anything, and every thread can find its own.
//
// Predict first: a = {1, 2, 2, 4, 5, 5, 7, 8, 9, 9}, b = {2, 3, 5, 5, 6, 9, 10, 11} (the merge
// `build/bin/chapter_03_merge --analyze` draws): the split of diagonals 0, 3, 6, 9 and 18. Then
// write the search. Grade it with `ctest --test-dir build -L exercise-03`.
#include "01_split.hpp"

#include "host/exercise.hpp"

namespace stepwise::merge::exercises {

std::size_t merge_path_split([[maybe_unused]] const std::vector<int>& a, [[maybe_unused]] const std::vector<int>& b,
                             [[maybe_unused]] std::size_t diagonal) {
  // TODO: the range of i the diagonal allows inside the grid, then a binary search on it.
  throw NotDoneYet("03-1", "merge_path_split", __FILE__);
}

}  // namespace stepwise::merge::exercises
