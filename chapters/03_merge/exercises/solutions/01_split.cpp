// Exercise 03-1, solved: on diagonal d, i (the outputs taken from A) lies in [max(0, d - |B|),
// min(d, |A|)]. Taking i = mid + 1 from A is right when A[mid] goes before B[d - 1 - mid], that is
// unless B[d - 1 - mid] < A[mid] (a tie takes A): then the crossing is past mid, else at or before it.
#include <algorithm>

#include "01_split.hpp"

namespace stepwise::merge::exercises {

std::size_t merge_path_split(const std::vector<int>& a, const std::vector<int>& b, std::size_t diagonal) {
  std::size_t low = diagonal > b.size() ? diagonal - b.size() : 0;
  std::size_t high = std::min(diagonal, a.size());
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    if (b[diagonal - 1 - mid] < a[mid])
      high = mid;
    else
      low = mid + 1;
  }
  return low;
}

}  // namespace stepwise::merge::exercises
