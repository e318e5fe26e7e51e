/// @file 03_tile_places.hpp
/// Exercise 09-3 (README.md): where one Onesweep pass puts each key of a tile.
#pragma once

#include <cstdint>
#include <vector>

namespace stepwise::sort::exercises {

/// Your function: the output place of each key of @p tile (uint32 keys, in input order) in the radix pass that
/// sorts by the digit of @p width bits (1 to 8) at bit @p shift. @p digit_starts[d] is the count of keys of the
/// whole input whose digit is below d (where digit d starts in the output); @p earlier_tiles[t][d] is the count
/// of keys of digit d in tile t, for every tile before this one (what the look-back gathers). The pass is
/// stable: keys of one digit keep their input order.
std::vector<std::uint64_t> predicted_places(const std::vector<std::uint32_t>& tile, int shift, int width,
                                            const std::vector<std::uint64_t>& digit_starts,
                                            const std::vector<std::vector<std::uint64_t>>& earlier_tiles);

}  // namespace stepwise::sort::exercises
