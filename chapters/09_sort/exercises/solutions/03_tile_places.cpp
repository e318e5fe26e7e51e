// Exercise 09-3, solved: sum the earlier tiles' counts per digit (the look-back's answer), then walk
// the tile in input order with one running count per digit (the rank), adding the digit's start.
#include "03_tile_places.hpp"

namespace stepwise::sort::exercises {

std::vector<std::uint64_t> predicted_places(const std::vector<std::uint32_t>& tile, int shift, int width,
                                            const std::vector<std::uint64_t>& digit_starts,
                                            const std::vector<std::vector<std::uint64_t>>& earlier_tiles) {
  const std::uint32_t mask = (1u << width) - 1;
  std::vector<std::uint64_t> next(digit_starts);  // the next free place of each digit
  for (const std::vector<std::uint64_t>& counts : earlier_tiles)
    for (std::size_t d = 0; d < counts.size() && d < next.size(); ++d) next[d] += counts[d];
  std::vector<std::uint64_t> places;
  for (std::uint32_t key : tile) places.push_back(next[(key >> shift) & mask]++);
  return places;
}

}  // namespace stepwise::sort::exercises
