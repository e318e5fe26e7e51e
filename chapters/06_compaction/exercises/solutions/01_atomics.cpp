// Exercise 06-1, solved: an atomic per group that holds a kept element, the group being one
// element (stage 1's source), a warp of 32 (stage 2, and stage 1 as compiled) or a tile (stages 3
// and 8); none for the rows that find their places by a scan or a look-back.
#include "01_atomics.hpp"

namespace stepwise::compaction::exercises {

std::uint64_t counter_atomics(const std::vector<bool>& kept, CounterAtomics where, std::uint64_t tile) {
  std::uint64_t group = 0;
  switch (where) {
    case CounterAtomics::none:
      return 0;
    case CounterAtomics::per_kept_element:
      group = 1;
      break;
    case CounterAtomics::per_warp:
      group = 32;
      break;
    case CounterAtomics::per_tile:
      group = tile;
      break;
  }
  std::uint64_t atomics = 0;
  for (std::uint64_t first = 0; first < kept.size(); first += group) {
    bool any = false;
    for (std::uint64_t i = first; i < first + group && i < kept.size(); ++i) any = any || kept[i];
    atomics += any ? 1 : 0;
  }
  return atomics;
}

}  // namespace stepwise::compaction::exercises
