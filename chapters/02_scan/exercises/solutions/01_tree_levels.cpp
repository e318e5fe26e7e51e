// Exercise 02-1, solved. At stride s, 256 / s threads work: min(32, 256 / s) lanes in each of
// ceil((256 / s) / 32) warps. Unpadded, their nodes are 2s words apart: a warp's lanes fall into
// 32 / gcd(2s, 32) banks, so min(lanes, lanes * 2s / 32) of them share one (2-way at s = 1, 16-way at
// s = 8 and 16, then as many as the lanes that work). Padded, the tree is conflict-free at every
// level. Each access of a warp takes `degree` wavefronts: 3 accesses per warp going up, 4 coming down.
#include <algorithm>

#include "01_tree_levels.hpp"

namespace stepwise::scan::exercises {

std::vector<LevelCount> predicted_levels(bool padded) {
  constexpr int kThreads = 256;
  std::vector<LevelCount> levels;
  for (int k = 0; k < 18; ++k) {
    const bool down = k >= 9;
    const int stride = 1 << (down ? 17 - k : k);
    const int active = kThreads / stride;
    const int lanes = std::min(32, active);
    const int warps = (active + 31) / 32;
    const int degree = padded ? 1 : std::min(lanes, lanes * 2 * stride / 32);
    const int accesses = down ? 4 : 3;
    levels.push_back({down, stride, active, degree, warps * accesses * degree});
  }
  return levels;
}

}  // namespace stepwise::scan::exercises
