// Exercise 08-2: the load-balancing search (README.md, "08-2").
//
// The lesson: once the scan says where each object's rows start, every output row can find its
// object alone: it belongs to the last object whose offset is at or below it (LBS), and its rank
// is how far past that offset it lies. Objects with no rows repeat an offset and own none. Done as
// a merge of the output rows 0, 1, 2, ... with the offsets (ties taking the offset), it splits
// evenly over threads however the counts fall: a heavy key spreads over many tiles, an empty one
// costs one step.
//
// Predict first: the lecture's walk-through has SCAN = 0 3 6 7 7 9 11 13 15 and 15 rows: write
// LBS and RANK for rows 0 to 14 by hand, then check them against the lecture. What does row 0
// belong to when the first two objects emit nothing? Then write the function. Grade it with
// `ctest --test-dir build -L exercise-08`.
#include "02_expansion.hpp"

#include "host/exercise.hpp"

namespace stepwise::join::exercises {

OutputColumns expand([[maybe_unused]] const std::vector<std::int32_t>& offsets) {
  // TODO: for each output row, the last object whose offset is <= the row, and the row minus that offset.
  throw NotDoneYet("08-2", "expand", __FILE__);
}

}  // namespace stepwise::join::exercises
