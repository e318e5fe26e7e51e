/// @file 03_tiles.hpp
/// Exercise 08-3 (README.md): the tiles of the expansion, output rows and objects together.
#pragma once

#include <cstdint>
#include <vector>

namespace stepwise::join::exercises {

/// One tile of the expansion's merge: the output rows it writes, and the objects whose offsets it
/// passes (analysis.hpp's ExpansionTile, without its steps).
struct RowTile {
  int rows_begin = 0, rows_end = 0;        ///< output rows [rows_begin, rows_end)
  int objects_begin = 0, objects_end = 0;  ///< offsets [objects_begin, objects_end)
};

/// Your function: the tiles of @p spacing steps (spacing >= 1) of the merge of the output rows
/// 0 .. @p rows - 1 with @p offsets (one per object, non-decreasing, the first 0 when there are
/// rows), ties taking the offset first: tile t takes steps [t spacing, min((t + 1) spacing, steps)),
/// steps = rows + objects, each step one output row or one offset. No tile when there are no steps.
std::vector<RowTile> expansion_tiles(const std::vector<std::int32_t>& offsets, int rows, int spacing);

}  // namespace stepwise::join::exercises
