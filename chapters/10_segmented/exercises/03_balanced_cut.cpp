// Exercise 10-3: the balanced cut and a set operation's output (README.md, "10-3").
//
// The lesson: Merge Path splits a merge into equal pieces, but a set operation pairs A's r-th copy
// of a key with B's r-th copy, and a thread that sees only one of the two cannot decide either.
// Balanced path moves Merge Path's cut by at most one element so that no pair straddles it: the
// copies of the key at the cut are dealt A0 B0 A1 B1 ... and a cut after A's r-th copy takes B's
// r-th copy too. Each piece between two cuts then runs std::set_*'s serial loop alone, and the
// output counts of the pieces add up to the operation's: min, max, the difference or the
// absolute difference of each key's copies.
//
// Predict first, by hand: for A = 1 2 2 2 5 and B = 2 2 3 5 5, the Merge Path cut and the balanced
// cut at every diagonal 0 .. 10, and the output count of each of the four operations. Then write
// the two functions. Grade them with `ctest --test-dir build -L exercise-10`.
#include "03_balanced_cut.hpp"

#include "host/exercise.hpp"

namespace stepwise::segmented::exercises {

Cut<std::int64_t> predicted_cut([[maybe_unused]] const std::vector<std::int32_t>& a,
                                [[maybe_unused]] const std::vector<std::int32_t>& b,
                                [[maybe_unused]] std::int64_t diagonal) {
  // TODO: Merge Path's cut first; then count the copies of b[j] before it and redeal them.
  throw NotDoneYet("10-3", "predicted_cut", __FILE__);
}

std::int64_t predicted_output_count([[maybe_unused]] SetOp op, [[maybe_unused]] const std::vector<std::int32_t>& a,
                                    [[maybe_unused]] const std::vector<std::int32_t>& b) {
  // TODO: walk both like a merge, counting each key's copies in A and in B.
  throw NotDoneYet("10-3", "predicted_output_count", __FILE__);
}

}  // namespace stepwise::segmented::exercises
