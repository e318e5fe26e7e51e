/// @file 02_flagged_scan.hpp
/// Exercise 10-2 (README.md): the (flag, value) operator of a segmented scan, and a scan in tiles that
/// groups it as stage 2 (single-pass) does: each tile alone, then the carry of the tiles before it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "flagged.hpp"

namespace stepwise::segmented::exercises {

/// An item of the exercise: the head flag (1 on a segment's first item) and a uint32 value (sums wrap).
using Item = Flagged<std::uint32_t>;

/// Your function: @p left combined with @p right by the segmented sum, @p left being the earlier items.
Item predicted_combine(const Item& left, const Item& right);

/// Your function: the inclusive scan of @p items by predicted_combine, computed in tiles of @p tile items
/// (the last one short) as a single-pass scan does: each tile's own inclusive scan, each tile's aggregate,
/// the carry into a tile (every earlier tile's aggregate, combined in order), then the carry combined with
/// each item of the tile's own scan. Item i of the result is the combination of items[0 .. i] in order: its
/// flag says whether a segment starts at or before i, its value the sum since the last head.
std::vector<Item> predicted_tiled_scan(const std::vector<Item>& items, std::size_t tile);

}  // namespace stepwise::segmented::exercises
