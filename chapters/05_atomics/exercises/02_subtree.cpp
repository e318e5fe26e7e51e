// Exercise 05-2: the sub-tree reduction, round by round (README.md, "05-2").
//
// The lesson: stage 3's leader reads all 32 lanes, one shuffle each, to sum its peers. The
// sub-tree reduces every group at once, as a binary tree over the group's own lanes in lane
// order: each round, a lane still in the tree adds the value of its nearest peer above still in
// it, then the lanes of odd rank among those left leave (their sums were taken), and the ranks
// halve. ceil(log2(largest group)) rounds of one shuffle, and each leader holds its group's sum.
//
// Predict first: the talk's 16 lanes (slides 19-20), keys 1 2 2 3 1 2 3 1 2 3 1 3 1 1 2 3, so
// groups {0 4 7 10 12 13}, {1 2 5 8 14} and {3 6 9 11 15}: which lane adds which in each round,
// and how many rounds? `build/bin/chapter_05_atomics --analyze` prints them. Then write the
// schedule. Grade it with `ctest --test-dir build -L exercise-05`.
#include "02_subtree.hpp"

#include "host/exercise.hpp"

namespace stepwise::atomics::exercises {

std::vector<std::vector<SubtreeAdd>> subtree_schedule([[maybe_unused]] const std::vector<Key>& keys) {
  // TODO: each lane's group and rank in it; in round r, which ranks add, and from which rank?
  throw NotDoneYet("05-2", "subtree_schedule", __FILE__);
}

}  // namespace stepwise::atomics::exercises
