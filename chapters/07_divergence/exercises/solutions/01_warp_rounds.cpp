// Exercise 07-1, solved: the set of paths the warp holds gives the branch form's cost (each path
// once, however many lanes take it); the longest lane gives the loop's; the lanes' own rounds are
// what any arrangement must run.
#include <algorithm>

#include "01_warp_rounds.hpp"

namespace stepwise::divergence::exercises {

WarpRounds warp_rounds(const std::vector<std::uint8_t>& paths, const std::vector<unsigned>& rounds) {
  WarpRounds cost;
  std::vector<bool> present(rounds.size(), false);
  for (std::uint8_t p : paths) {
    present[p] = true;
    cost.loop_rounds = std::max<std::uint64_t>(cost.loop_rounds, rounds[p]);
    cost.lane_rounds += rounds[p];
  }
  int held = 0;
  for (std::size_t p = 0; p < present.size(); ++p) {
    if (!present[p]) continue;
    cost.branch_rounds += rounds[p];
    ++held;
  }
  cost.divergent = held > 1;
  return cost;
}

}  // namespace stepwise::divergence::exercises
