// Exercise 11-1: the ring schedule (README.md, "11-1").
//
// The lesson: a ring all-reduce cuts each GPU's buffer into G chunks and moves one chunk per GPU
// per step, so that every link carries data at every step. In the reduce-scatter, GPU g sends
// chunk g - s (mod G) at step s and receives chunk g - s - 1 from its left neighbour, adding its
// own part: after G - 1 steps each chunk has passed every GPU once, and GPU g holds the whole sum
// of chunk g + 1. The all-gather then passes the finished chunks around the same ring, copying.
// Every GPU sends 2 (G - 1) chunks of n / G: the 2 (G - 1) / G of the bus-bandwidth factor.
//
// Predict first, by hand: on 4 GPUs, the chunk GPU 2 sends and receives at each of the 6 steps;
// which chunk each GPU holds complete after step 2; and at which step GPU 0 receives chunk 0's
// sum. Then write the function. Grade it with `ctest --test-dir build -L exercise-11`.
#include "01_ring_schedule.hpp"

#include "host/exercise.hpp"

namespace stepwise::multigpu::exercises {

RingStep predicted_ring_step([[maybe_unused]] int gpu, [[maybe_unused]] int gpus, [[maybe_unused]] int step) {
  // TODO: reduce while step < G - 1; count the all-gather's steps from 0; chunks mod G, never negative.
  throw NotDoneYet("11-1", "predicted_ring_step", __FILE__);
}

}  // namespace stepwise::multigpu::exercises
