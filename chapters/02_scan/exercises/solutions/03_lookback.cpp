// Exercise 02-3, solved. The window ending at e inspects tiles e - 1 down to e - 32. The search stops
// in the first window that reaches tile last_inclusive (or tile -1, the identity before tile 0), at
// lane e - 1 - last_inclusive, and folds that many lanes plus its own; every window before it folds 32
// aggregates. Each aggregate is 1 and tile k's inclusive prefix is k + 1, so the prefix after a window
// counts the tiles from window_end - folded_lanes to the tile, or, in the last window, all of them.
#include "03_lookback.hpp"

namespace stepwise::scan::exercises {

std::vector<WindowPrediction> predicted_windows(long long tile, long long last_inclusive) {
  std::vector<WindowPrediction> windows;
  long long window_end = tile;
  for (;;) {
    WindowPrediction window;
    window.window_end = window_end;
    const long long stop_lane = window_end - 1 - last_inclusive;  // the lane that reads tile last_inclusive
    if (stop_lane < 32) {
      window.nearest_inclusive = static_cast<int>(stop_lane);
      window.folded_lanes = window.nearest_inclusive + 1;
      window.prefix = static_cast<std::int32_t>(tile);  // last_inclusive + 1 from its prefix, the rest aggregates
      windows.push_back(window);
      return windows;
    }
    window.nearest_inclusive = -1;
    window.folded_lanes = 32;
    window.prefix = static_cast<std::int32_t>(tile - (window_end - 32));
    windows.push_back(window);
    window_end -= 32;
  }
}

}  // namespace stepwise::scan::exercises
