// Exercise 07-3: the efficiency control (README.md, "07-3").
//
// The lesson: a remap pays only when the work it saves is more than what it costs (the paper's
// T_div > T_no-div + T_remap). Stage 8 estimates the saving before the work, from a sample: one
// warp in every stride, at most 2048 of them. A warp costs its longest lane's rounds in stage 2,
// and about its lanes' mean rounds once sorted by path; their difference, per sampled warp, is the
// saving. A remap costs about 40 rounds per warp (kBreakEvenRounds, measured on an H100): stage 8
// remaps when the saving reaches it, and otherwise runs stage 2 at the price of the sample only.
//
// Predict first: the saving per warp of a fully mixed warp of paths 0-3 (64, 128, 256, 512
// rounds, eight lanes each); of a uniform warp; of a mutation warp with one mutating individual.
// At what share of mixed warps does the saving reach 40 rounds? Then write the function. Grade it
// with `ctest --test-dir build -L exercise-07`.
#include "03_sample.hpp"

#include "host/exercise.hpp"

namespace stepwise::divergence::exercises {

SampleAnswer stage8_sample([[maybe_unused]] const std::vector<std::uint8_t>& paths,
                           [[maybe_unused]] const std::vector<unsigned>& rounds) {
  // TODO: which warps the sample reads, the two sums over them, and the decision.
  throw NotDoneYet("07-3", "stage8_sample", __FILE__);
}

}  // namespace stepwise::divergence::exercises
