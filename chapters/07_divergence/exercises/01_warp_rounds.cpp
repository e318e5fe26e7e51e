// Exercise 07-1: what a warp costs, a branch per path against one loop (README.md, "07-1").
//
// The lesson: a warp issues one instruction for its 32 lanes. With a branch per path (stage 1's
// switch), a warp that holds several paths runs each of them in turn, the other lanes masked off:
// it pays the SUM of its paths' rounds. Written as one loop with a per-lane trip count (stage 2),
// it runs until its longest lane is done: it pays the MAXIMUM. The work its lanes need is the
// same either way; what is left over in the loop is trip-count divergence, which only a remap
// removes.
//
// Predict first: a warp holding paths 0, 1, 2, 3 eight times each (64, 128, 256 and 512 rounds);
// a warp of the mutation step with one mutating individual (512 rounds) and 31 ageing (1 round);
// a warp of one path. Then write the function. Grade it with `ctest --test-dir build -L exercise-07`.
#include "01_warp_rounds.hpp"

#include "host/exercise.hpp"

namespace stepwise::divergence::exercises {

WarpRounds warp_rounds([[maybe_unused]] const std::vector<std::uint8_t>& paths,
                       [[maybe_unused]] const std::vector<unsigned>& rounds) {
  // TODO: which paths the warp holds, its longest lane, and the rounds of all its lanes.
  throw NotDoneYet("07-1", "warp_rounds", __FILE__);
}

}  // namespace stepwise::divergence::exercises
