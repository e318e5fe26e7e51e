// Exercise 01-1: divergence, kernel 1 against kernel 3 (README.md, "01-1").
//
// The lesson: kernel 1 (stage 1) adds with the threads whose tid is a multiple of 2s, scattered
// over every warp; kernel 3 (stage 4) adds with the first s threads, packed into whole warps.
// Both run the same number of adds. Count, step by step, how many threads and warps work and how
// many warps diverge (some lanes add, some do not), in a block of 128 threads (4 warps of 32).
//
// Work it out on paper first, from thread_work in addressing.hpp, then write your table below:
// one StepCount {stride, active threads, active warps, divergent warps} per step, in the order
// the kernel runs the strides. Grade it with `ctest --test-dir build -L exercise-01`.
#include "01_divergence.hpp"

#include "host/exercise.hpp"

namespace stepwise::reduction::exercises {

std::vector<StepCount> predicted_steps(Addressing scheme) {
  if (scheme == Addressing::interleaved_divergent) {
    // TODO: kernel 1's 7 steps, strides 1, 2, 4, ..., 64: return {{1, ?, ?, ?}, {2, ?, ?, ?}, ...};
    throw NotDoneYet("01-1", "predicted_steps", __FILE__);
  }
  // TODO: kernel 3's 7 steps, strides 64, 32, ..., 1: return {{64, ?, ?, ?}, {32, ?, ?, ?}, ...};
  throw NotDoneYet("01-1", "predicted_steps", __FILE__);
}

}  // namespace stepwise::reduction::exercises
