// Exercise 06-1: the atomics on one counter (README.md, "06-1").
//
// The lesson: stages 1, 2 and 3 (and 8) all find an element's place with atomicAdd on the same
// output counter, and one address is served one atomic after another. Stage 1's source asks for
// one atomic per kept element; stage 2's warp votes and asks for one per warp that holds a kept
// element (what nvcc already makes of stage 1); stage 3's block counts its tile and asks for one
// per tile that holds one. The count of those atomics, not the bytes, is what the first two
// stages' time follows.
//
// Predict first: at 2^26 elements, 50 % kept at random, how many atomics does each way issue? At
// 1 %? With runs of 1000 kept or dropped elements? Then write the function: count them from the
// kept flags. Grade it with `ctest --test-dir build -L exercise-06`.
#include "01_atomics.hpp"

#include "host/exercise.hpp"

namespace stepwise::compaction::exercises {

std::uint64_t counter_atomics([[maybe_unused]] const std::vector<bool>& kept, [[maybe_unused]] CounterAtomics where,
                              [[maybe_unused]] std::uint64_t tile) {
  // TODO: count the groups (of 1, 32 or tile elements, or none) that hold at least one kept element.
  throw NotDoneYet("06-1", "counter_atomics", __FILE__);
}

}  // namespace stepwise::compaction::exercises
