// Exercise 05-1: the trips of the ballot loop (README.md, "05-1").
//
// The lesson: a warp finds the lanes that share a key (its peers) with votes. While lanes are
// unassigned, the lowest of them broadcasts its key, every unassigned lane votes whether it
// holds the same, and the ballot is the voters' peer mask: they leave together. One trip per
// distinct key, so a warp of d distinct keys runs d trips and then sends d atomics, not 32.
//
// Predict first: the talk's lanes 0-7 with keys 2 3 3 1 2 3 1 2 (the example
// `build/bin/chapter_05_atomics --analyze` draws): each trip's leader and ballot, lane 0 the
// lowest bit. Then write the loop. Grade it with `ctest --test-dir build -L exercise-05`.
#include "01_ballots.hpp"

#include "host/exercise.hpp"

namespace stepwise::atomics::exercises {

std::vector<BallotTrip> ballot_loop_trips([[maybe_unused]] const std::vector<Key>& keys) {
  // TODO: a mask of the unassigned lanes; while it is not empty, its lowest lane, its ballot, a trip.
  throw NotDoneYet("05-1", "ballot_loop_trips", __FILE__);
}

}  // namespace stepwise::atomics::exercises
