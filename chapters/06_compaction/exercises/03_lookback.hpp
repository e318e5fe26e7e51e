/// @file 03_lookback.hpp
/// Exercise 06-3 (README.md): what one tile's look-back reads and adds (stages 6 and 7).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stepwise::compaction::exercises {

/// What a look-back does for one tile.
struct LookbackAnswer {
  std::size_t windows = 0;  ///< windows of 32 predecessors the warp reads (0 for tile 0)
  /// In the last window, the lanes whose values are added: up to and with the nearest lane that
  /// saw an inclusive prefix, or all 32 (0 when there is no window).
  int lanes_added = 0;
  std::uint64_t exclusive_prefix = 0;  ///< the kept elements before the tile: where its own go
};

/// Your function: the look-back of tile @p tile (common/device/lookback.cuh's look_back) over one
/// snapshot of the statuses. @p counts[k] is tile k's kept elements (k = 0 .. tile at least).
/// In the snapshot, every tile k <= @p last_inclusive (< tile; tile 0 always) has published its
/// inclusive prefix, counts[0] + ... + counts[k]; every tile between last_inclusive and tile only
/// its own count. Lane l of the warp reads tile window_end - 1 - l, window_end starting at tile;
/// a window without an inclusive prefix is added whole and the next window starts 32 tiles back.
LookbackAnswer look_back(const std::vector<unsigned>& counts, std::uint64_t tile, std::uint64_t last_inclusive);

}  // namespace stepwise::compaction::exercises
