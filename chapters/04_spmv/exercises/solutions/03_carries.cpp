// Exercise 04-3, solved: row r's end is merge item offsets[r + 1] + r, increasing in r, so the row
// ends before diagonal d are the rows whose end item is below d (a binary search), and the nonzeros
// before it are d minus those. At a tile's end e the first row not ended there is still open; it
// holds the tile's nonzeros from max(its first nonzero, the tile's first) to the nonzeros before e.
#include "03_carries.hpp"

#include <algorithm>

namespace stepwise::spmv::exercises {

std::vector<TileSpan> tile_spans(const std::vector<std::int32_t>& offsets, int threads_per_tile, int items_per_thread) {
  const std::int64_t rows = static_cast<std::int64_t>(offsets.size()) - 1;
  const std::int64_t total = rows + offsets.back();
  const std::int64_t tile_items = static_cast<std::int64_t>(threads_per_tile) * items_per_thread;
  // The rows whose end item lies before diagonal d.
  const auto rows_before = [&](std::int64_t d) {
    std::int64_t low = 0, high = rows;
    while (low < high) {
      const std::int64_t mid = low + (high - low) / 2;
      if (offsets[static_cast<std::size_t>(mid + 1)] + mid < d)
        low = mid + 1;
      else
        high = mid;
    }
    return low;
  };
  std::vector<TileSpan> tiles;
  for (std::int64_t first = 0; first < total; first += tile_items) {
    TileSpan tile;
    tile.first_row = rows_before(first);
    tile.first_nonzero = first - tile.first_row;
    const std::int64_t end = std::min(first + tile_items, total);
    const std::int64_t open_row = rows_before(end);
    const std::int64_t end_nonzero = end - open_row;
    if (open_row < rows) {
      const std::int64_t from = std::max<std::int64_t>(tile.first_nonzero, offsets[static_cast<std::size_t>(open_row)]);
      if (end_nonzero > from) {
        tile.carry_row = open_row;
        tile.carry_nonzeros = end_nonzero - from;
      }
    }
    tiles.push_back(tile);
  }
  return tiles;
}

}  // namespace stepwise::spmv::exercises
