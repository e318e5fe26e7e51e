// Exercise 04-1: what a warp waits for (README.md, "04-1").
//
// The lesson: a warp runs its row loop as many times as its slowest group needs. Stage 1 gives
// each of 32 lanes a row, so a warp runs as many steps as its longest row while the lanes of
// shorter rows idle; stage 3 gives each row a group of L lanes, which cuts the steps of a long row
// by L but leaves lanes idle inside a short one. The idle lane-steps are the price of a thread or
// a group per row, and only the row lengths decide them.
//
// Predict first: the lecture's 4 x 4 matrix (offsets 0 2 2 5 7) with 1, 2 and 32 lanes per row:
// each warp's steps and the idle lane-steps. `build/bin/chapter_04_spmv --analyze --matrix lecture`
// prints the shares for 1 and 2 lanes. Then write the count. Grade it with
// `ctest --test-dir build -L exercise-04`.
#include "01_warps.hpp"

#include "host/exercise.hpp"

namespace stepwise::spmv::exercises {

WarpSteps warp_steps([[maybe_unused]] const std::vector<std::int32_t>& offsets, [[maybe_unused]] int lanes_per_row) {
  // TODO: the rows per warp; each row's steps for its group; each warp's slowest; 32 lanes a step.
  throw NotDoneYet("04-1", "warp_steps", __FILE__);
}

}  // namespace stepwise::spmv::exercises
