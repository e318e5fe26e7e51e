// Exercise 10-2, solved: the operator ORs the flags and restarts the sum at the right operand's
// head; the tiled scan scans each tile alone, then combines the carry of the earlier tiles on the
// left of every item of the tile and folds the tile's aggregate into the carry.
#include "02_flagged_scan.hpp"

#include <algorithm>

namespace stepwise::segmented::exercises {

Item predicted_combine(const Item& left, const Item& right) {
  return {left.flag | right.flag, right.flag != 0 ? right.value : left.value + right.value};
}

std::vector<Item> predicted_tiled_scan(const std::vector<Item>& items, std::size_t tile) {
  std::vector<Item> out(items.size());
  Item carry{0u, 0u};
  for (std::size_t first = 0; first < items.size(); first += tile) {
    const std::size_t last = std::min(items.size(), first + tile);
    Item running = items[first];
    out[first] = running;
    for (std::size_t i = first + 1; i < last; ++i) out[i] = running = predicted_combine(running, items[i]);
    for (std::size_t i = first; i < last; ++i) out[i] = predicted_combine(carry, out[i]);
    carry = predicted_combine(carry, running);
  }
  return out;
}

}  // namespace stepwise::segmented::exercises
