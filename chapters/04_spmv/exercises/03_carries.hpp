/// @file 03_carries.hpp
/// Exercise 04-3 (README.md): where the merge-based stages' tiles start, and the carry each leaves.
#pragma once

#include <cstdint>
#include <vector>

namespace stepwise::spmv::exercises {

/// One tile of the merge of the row ends and the nonzeros, and its carry.
struct TileSpan {
  std::int64_t first_row = 0;       ///< row ends before the tile's first item
  std::int64_t first_nonzero = 0;   ///< nonzeros before it
  std::int64_t carry_row = -1;      ///< the row open at the tile's end that holds some of its nonzeros, or -1
  std::int64_t carry_nonzeros = 0;  ///< how many of the tile's nonzeros belong to that row (0 without one)
};

/// Your function: the tiles of the merge-based stages on the CSR matrix whose row offsets are
/// @p offsets (rows + 1 entries, offsets[0] = 0). The merge lists the row ends offsets[1 .. rows]
/// and the nonzero indices 0 .. nnz - 1, a row end before a nonzero equal to it (so row r's end
/// follows its last nonzero, and an empty row costs one item); tile t holds its items
/// [t T, min((t + 1) T, rows + nnz)), T = @p threads_per_tile x @p items_per_thread. No tile when
/// the merge is empty.
std::vector<TileSpan> tile_spans(const std::vector<std::int32_t>& offsets, int threads_per_tile, int items_per_thread);

}  // namespace stepwise::spmv::exercises
