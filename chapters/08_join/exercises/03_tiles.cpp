// Exercise 08-3: the tiles of the expansion (README.md, "08-3").
//
// The lesson: the expansion maps a fixed count of inputs plus outputs to a tile: NT x VT steps of
// the merge of the output rows with the offsets, each step one row written or one object passed.
// By rows alone a tile could owe a heavy key's thousands of rows; by objects alone a run of
// unmatched rows would leave a tile with nothing to write. The sum is fixed, and one Merge Path
// search per tile boundary says where each tile's rows and objects begin.
//
// Predict first: the lecture's walk-through, SCAN = 0 3 6 7 7 9 11 13 (one offset per A row) and
// 15 rows, in tiles of NT x VT = 2 x 3 = 6 steps: each tile's output rows and A rows. How many
// tiles would 8 A rows of 1,000 rows each need, and 1,000 A rows of none? Then write the function.
// Grade it with `ctest --test-dir build -L exercise-08`.
#include "03_tiles.hpp"

#include "host/exercise.hpp"

namespace stepwise::join::exercises {

std::vector<RowTile> expansion_tiles([[maybe_unused]] const std::vector<std::int32_t>& offsets,
                                     [[maybe_unused]] int rows, [[maybe_unused]] int spacing) {
  // TODO: for each tile boundary, how many of its steps are output rows (a search along the cross diagonal).
  throw NotDoneYet("08-3", "expansion_tiles", __FILE__);
}

}  // namespace stepwise::join::exercises
