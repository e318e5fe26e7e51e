// Exercise 10-1: idle lanes (README.md, "10-1").
//
// The lesson: a segmented problem is as fast as its busiest lanes. One thread per segment, or a
// group of lanes per segment, keeps a whole warp busy for as long as its longest segment: the
// lanes of short and empty segments wait, idle. A block per segment wastes a block on every
// segment shorter than the block. Merge Path walks items and segment ends alike, VT a thread,
// whatever the lengths: it never idles more than the last thread's remainder, but pays one step
// per segment end. --analyze counts each row's lane-steps and prints the idle share, 1 - n /
// lane-steps.
//
// Predict first, by hand: for the offsets {0, 3, 3, 10} (lengths 3, 0, 7), the lane-steps and the
// idle share of a thread per segment, 4 lanes per segment, a warp per segment, a block of 256 per
// segment and Merge Path with VT = 7. Then write the function. Grade it with
// `ctest --test-dir build -L exercise-10`.
#include "01_idle_lanes.hpp"

#include "host/exercise.hpp"

namespace stepwise::segmented::exercises {

LaneWork predicted_work([[maybe_unused]] const WorkPlan& plan,
                        [[maybe_unused]] const std::vector<std::uint64_t>& offsets) {
  // TODO: one case per WorkUnit; for thread and group, walk the segments a warp at a time.
  throw NotDoneYet("10-1", "predicted_work", __FILE__);
}

}  // namespace stepwise::segmented::exercises
