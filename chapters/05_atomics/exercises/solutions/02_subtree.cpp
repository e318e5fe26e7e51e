// Exercise 05-2, solved: after r rounds the lanes still in the tree are the ranks that are
// multiples of 2^r. In round r (from 0) the rank k that is a multiple of 2^(r + 1) adds the
// rank k + 2^r, when its group has one; the others of the round leave. Rounds run while the
// largest group needs one: 2^r below its size.
#include "02_subtree.hpp"

#include <algorithm>
#include <cstddef>

namespace stepwise::atomics::exercises {

std::vector<std::vector<SubtreeAdd>> subtree_schedule(const std::vector<Key>& keys) {
  const int lanes = static_cast<int>(keys.size());
  // Each lane's group (its peers, in lane order) and its rank in it.
  std::vector<std::vector<int>> group(keys.size());
  std::vector<int> rank(keys.size(), 0);
  std::size_t largest = 0;
  for (int lane = 0; lane < lanes; ++lane) {
    for (int other = 0; other < lanes; ++other) {
      if (keys[static_cast<std::size_t>(other)] != keys[static_cast<std::size_t>(lane)]) continue;
      if (other < lane) ++rank[static_cast<std::size_t>(lane)];
      group[static_cast<std::size_t>(lane)].push_back(other);
    }
    largest = std::max(largest, group[static_cast<std::size_t>(lane)].size());
  }
  std::vector<std::vector<SubtreeAdd>> rounds;
  for (std::size_t step = 1; step < largest; step *= 2) {
    std::vector<SubtreeAdd> adds;
    for (int lane = 0; lane < lanes; ++lane) {
      const std::size_t k = static_cast<std::size_t>(rank[static_cast<std::size_t>(lane)]);
      const std::vector<int>& peers = group[static_cast<std::size_t>(lane)];
      if (k % (2 * step) == 0 && k + step < peers.size()) adds.push_back({lane, peers[k + step]});
    }
    rounds.push_back(adds);
  }
  return rounds;
}

}  // namespace stepwise::atomics::exercises
