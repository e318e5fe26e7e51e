// Exercise 03-2: the tiles of a merge (README.md, "03-2").
//
// The lesson: stage 3's partition kernel searches one diagonal per tile boundary, 0, NV, 2NV, ...,
// and each block then merges the A and B ranges between its two cross points: exactly NV outputs
// (the last tile fewer), however the keys fall. A tile's ranges come from two searches only.
//
// Predict first: the merge `build/bin/chapter_03_merge --analyze` draws, cut for tiles of
// NT x VT = 2 x 3 = 6 outputs: the A and B ranges of its three tiles. Then write the function
// (the chapter's merge_path, in common/algorithm/merge_path.hpp, or your exercise 03-1 does the
// searches). Grade it with `ctest --test-dir build -L exercise-03`.
#include "02_tiles.hpp"

#include "host/exercise.hpp"

namespace stepwise::merge::exercises {

std::vector<TileRange> tile_ranges([[maybe_unused]] const std::vector<int>& a,
                                   [[maybe_unused]] const std::vector<int>& b, [[maybe_unused]] std::size_t nv) {
  // TODO: one search per tile boundary, then each tile's ranges from its two cross points.
  throw NotDoneYet("03-2", "tile_ranges", __FILE__);
}

}  // namespace stepwise::merge::exercises
