// Exercise 10-2: the segmented scan's operator (README.md, "10-2").
//
// The lesson: a segmented scan is a plain scan of (flag, value) pairs under one operator,
//   (f1, v1) . (f2, v2) = (f1 | f2, f2 ? v2 : v1 + v2),
// so every plain scan (a tree, a block scan, a look-back over tiles) scans segments too. The
// operator is associative, so a scan may group the items any way, tile by tile; it is not
// commutative, so it must keep every left operand on the left: the carry of the earlier tiles
// goes before a tile's own prefix, never after. And the combined flag is the OR of both: a pair
// that covers a head must say so, or a later carry would run through it.
//
// Predict first, by hand: (1, 5) . (0, 3), (0, 3) . (1, 5), and the inclusive scan of the values
// 4 1 2 | 3 | 1 1 (heads at 0, 3 and 4) in tiles of 2: each tile's scan, its aggregate, its carry.
// Then write the two functions. Grade them with `ctest --test-dir build -L exercise-10`.
#include "02_flagged_scan.hpp"

#include "host/exercise.hpp"

namespace stepwise::segmented::exercises {

Item predicted_combine([[maybe_unused]] const Item& left, [[maybe_unused]] const Item& right) {
  // TODO: the flags' OR; the right value alone when the right pair holds a head, else the sum.
  throw NotDoneYet("10-2", "predicted_combine", __FILE__);
}

std::vector<Item> predicted_tiled_scan([[maybe_unused]] const std::vector<Item>& items,
                                       [[maybe_unused]] std::size_t tile) {
  // TODO: scan each tile, then combine the running carry (on the left) with each item of the next tile.
  throw NotDoneYet("10-2", "predicted_tiled_scan", __FILE__);
}

}  // namespace stepwise::segmented::exercises
