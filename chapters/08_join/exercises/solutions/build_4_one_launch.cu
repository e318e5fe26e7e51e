// Exercise 08-4, solved: the solution is the chapter's stage 3 itself (stages/03_one_launch.cu),
// whose kernel both_bounds picks its merge by blockIdx.x, loads the tile's A and B ranges with
// VectorizedRangeLoad, runs merge_path and serial_merge with that merge's bounds, and in the upper
// tiles records B's cursors too, from which it writes whether A holds each B key. Read it there,
// beside stage 2's search_tiles (join.cuh) and SortedSearchTile (common/device/merge_tile.cuh).
#include "build_4_one_launch.hpp"

namespace stepwise::join::exercises {

JoinStage exercise_08_4_stage() { return join_one_launch(); }

}  // namespace stepwise::join::exercises
