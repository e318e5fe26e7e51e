// Exercise 04-3: the tiles of the merge and their carries (README.md, "04-3").
//
// The lesson: the merge-based stages cut the merge of row ends and nonzeros into tiles of equal
// items, whatever the rows are. Row r's end is item offsets[r + 1] + r, so where a tile starts,
// and which row is still open at its end, follows from the offsets alone. A row open at a tile's
// end with some of the tile's nonzeros leaves a carry, a partial sum the fix-up kernel adds to y:
// a long row leaves one per tile boundary it crosses.
//
// Predict first: the merge the lecture draws, `huge-row:8:3:20` (offsets 0 3 6 9 12 32 35 38 41,
// the row of 20 in the middle), cut into tiles of 2 threads x 7 items: each tile's first row and
// nonzero, and its carry. Then write the tiles. Grade it with `ctest --test-dir build -L exercise-04`.
#include "03_carries.hpp"

#include "host/exercise.hpp"

namespace stepwise::spmv::exercises {

std::vector<TileSpan> tile_spans([[maybe_unused]] const std::vector<std::int32_t>& offsets,
                                 [[maybe_unused]] int threads_per_tile, [[maybe_unused]] int items_per_thread) {
  // TODO: the row ends before a diagonal (a search on offsets[r + 1] + r), at each tile's start and end.
  throw NotDoneYet("04-3", "tile_spans", __FILE__);
}

}  // namespace stepwise::spmv::exercises
