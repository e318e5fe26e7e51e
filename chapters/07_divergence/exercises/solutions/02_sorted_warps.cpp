// Exercise 07-2, solved: sorted by path, the elements form one run per path that occurs. A warp
// diverges when a run ends strictly inside it, between two of its threads: at an end e (the
// elements before it, a prefix sum of the histogram) with 0 < e < n and e not a multiple of the
// warp's width. Several ends in one warp make it divergent once.
#include "02_sorted_warps.hpp"

namespace stepwise::divergence::exercises {

std::size_t divergent_after_sort(const std::vector<std::size_t>& histogram, std::size_t warp_width) {
  std::size_t n = 0;
  for (std::size_t count : histogram) n += count;
  std::size_t divergent = 0;
  std::size_t last_counted = static_cast<std::size_t>(-1);  // the warp last found divergent
  std::size_t end = 0;
  for (std::size_t count : histogram) {
    if (count == 0) continue;
    end += count;
    if (end == n || end % warp_width == 0) continue;  // the run ends at a warp's edge, or is the last
    const std::size_t warp = end / warp_width;        // element end - 1 and element end share this warp
    if (warp != last_counted) ++divergent;
    last_counted = warp;
  }
  return divergent;
}

}  // namespace stepwise::divergence::exercises
