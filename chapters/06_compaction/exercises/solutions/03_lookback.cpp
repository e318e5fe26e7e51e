// Exercise 06-3, solved: walk the windows of 32 predecessors back from the tile. Lane l of a
// window sees tile window_end - 1 - l: its inclusive prefix (the sum of counts up to it) when it is
// at or before last_inclusive, else its own count. The nearest inclusive lane ends the search;
// the values of the lanes up to it add up to the exclusive prefix.
#include <cstdint>

#include "03_lookback.hpp"

namespace stepwise::compaction::exercises {

LookbackAnswer look_back(const std::vector<unsigned>& counts, std::uint64_t tile, std::uint64_t last_inclusive) {
  LookbackAnswer answer;
  if (tile == 0) return answer;  // tile 0 has nothing before it: it publishes its inclusive prefix at once
  std::uint64_t inclusive = 0;   // counts[0] + ... + counts[last_inclusive]: what tile last_inclusive published
  for (std::uint64_t k = 0; k <= last_inclusive; ++k) inclusive += counts[k];
  auto window_end = static_cast<std::int64_t>(tile);
  while (true) {
    ++answer.windows;
    for (int lane = 0; lane < 32; ++lane) {
      const std::int64_t predecessor = window_end - 1 - lane;
      answer.lanes_added = lane + 1;
      if (predecessor <= static_cast<std::int64_t>(last_inclusive)) {  // an inclusive prefix: the last lane added
        answer.exclusive_prefix += inclusive;
        return answer;
      }
      answer.exclusive_prefix += counts[static_cast<std::size_t>(predecessor)];
    }
    window_end -= 32;
  }
}

}  // namespace stepwise::compaction::exercises
