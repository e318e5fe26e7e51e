/// @file 03_lookback.hpp
/// Exercise 02-3 (README.md): the windows of one decoupled look-back (stage 7): which predecessors
/// a tile's warp reads, where it stops, and the prefix it folds.
#pragma once

#include <cstdint>
#include <vector>

namespace stepwise::scan::exercises {

/// One window of 32 predecessors, as lookback_replay.hpp's LookbackWindow records it.
struct WindowPrediction {
  long long window_end = 0;   ///< lane l inspects tile window_end - 1 - l
  int nearest_inclusive = 0;  ///< the lowest lane that sees an inclusive prefix, or -1 when none does
  int folded_lanes = 0;       ///< lanes 0 .. folded_lanes - 1 are reduced into the prefix
  std::int32_t prefix = 0;    ///< the exclusive prefix folded so far, after this window
};

/// Your function: the windows of tile @p tile's look-back, in order, when every tile's aggregate is
/// 1 (so a prefix counts tiles), tiles 0 .. @p last_inclusive have published their inclusive prefix
/// (tile k: k + 1), and tiles last_inclusive + 1 .. tile - 1 only their aggregate.
/// @p last_inclusive is -1 when no tile has published its inclusive prefix yet; a predecessor before
/// tile 0 reads as an inclusive prefix of 0.
std::vector<WindowPrediction> predicted_windows(long long tile, long long last_inclusive);

}  // namespace stepwise::scan::exercises
