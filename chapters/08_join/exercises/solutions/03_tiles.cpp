// Exercise 08-3, solved: at each tile boundary, the Merge Path search along the cross diagonal d
// (the steps before the boundary): the output rows taken are the largest i for which row i - 1
// goes before offset d - i, that is i - 1 < offsets[d - i] (a tie takes the offset first); the
// other d - i steps passed offsets. A tile's rows and objects lie between its two boundaries.
#include <algorithm>

#include "03_tiles.hpp"

namespace stepwise::join::exercises {
namespace {

/// The output rows among the first @p diagonal steps of the merge.
int rows_before(const std::vector<std::int32_t>& offsets, int rows, int diagonal) {
  const int objects = static_cast<int>(offsets.size());
  int low = std::max(0, diagonal - objects);
  int high = std::min(diagonal, rows);
  while (low < high) {
    const int i = (low + high + 1) / 2;
    if (offsets[static_cast<std::size_t>(diagonal - i)] > i - 1)
      low = i;
    else
      high = i - 1;
  }
  return low;
}

}  // namespace

std::vector<RowTile> expansion_tiles(const std::vector<std::int32_t>& offsets, int rows, int spacing) {
  const int steps = rows + static_cast<int>(offsets.size());
  std::vector<RowTile> tiles;
  for (int first = 0; first < steps; first += spacing) {
    const int last = std::min(steps, first + spacing);
    RowTile tile;
    tile.rows_begin = rows_before(offsets, rows, first);
    tile.rows_end = rows_before(offsets, rows, last);
    tile.objects_begin = first - tile.rows_begin;
    tile.objects_end = last - tile.rows_end;
    tiles.push_back(tile);
  }
  return tiles;
}

}  // namespace stepwise::join::exercises
