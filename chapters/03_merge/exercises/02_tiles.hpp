/// @file 02_tiles.hpp
/// Exercise 03-2 (README.md): the tiles of a merge, the ranges of A and B each one merges.
#pragma once

#include <cstddef>
#include <vector>

namespace stepwise::merge::exercises {

/// The half-open ranges A[a_begin, a_end) and B[b_begin, b_end) that one tile merges.
struct TileRange {
  std::size_t a_begin = 0;
  std::size_t a_end = 0;
  std::size_t b_begin = 0;
  std::size_t b_end = 0;
};

/// Your function: the tiles of the stable merge of @p a and @p b (sorted; a tie takes A first) cut
/// every @p nv outputs (nv >= 1), in order: tile t merges outputs [t * nv, min((t + 1) * nv, n)),
/// n = |A| + |B|. No tile for n = 0.
std::vector<TileRange> tile_ranges(const std::vector<int>& a, const std::vector<int>& b, std::size_t nv);

}  // namespace stepwise::merge::exercises
