// Exercise 03-2, solved: the cross points of the tile boundaries 0, nv, 2nv, ..., n (merge_path,
// ties take A), then tile t merges A[path(t), path(t + 1)) and B[t*nv - path(t), end - path(t + 1)),
// end = min((t + 1) * nv, n): its first and last diagonals minus the A elements before them.
#include <algorithm>
#include <cstdint>

#include "02_tiles.hpp"
#include "algorithm/merge_path.hpp"

namespace stepwise::merge::exercises {

std::vector<TileRange> tile_ranges(const std::vector<int>& a, const std::vector<int>& b, std::size_t nv) {
  const std::int64_t na = static_cast<std::int64_t>(a.size());
  const std::int64_t nb = static_cast<std::int64_t>(b.size());
  const std::int64_t n = na + nb;
  const std::int64_t spacing = static_cast<std::int64_t>(nv);
  std::vector<TileRange> tiles;
  std::int64_t path = 0;  // the cross point of the tile's first diagonal
  for (std::int64_t first = 0; first < n; first += spacing) {
    const std::int64_t last = std::min(first + spacing, n);
    const std::int64_t next = merge_path(a.data(), na, b.data(), nb, last, Less{});
    tiles.push_back({static_cast<std::size_t>(path), static_cast<std::size_t>(next),
                     static_cast<std::size_t>(first - path), static_cast<std::size_t>(last - next)});
    path = next;
  }
  return tiles;
}

}  // namespace stepwise::merge::exercises
