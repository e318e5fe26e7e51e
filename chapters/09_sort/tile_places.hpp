/// @file tile_places.hpp
/// Where one digit pass of an LSD radix sort puts each key of a tile, written once for the host
/// and the device: the place of a key of digit d is where digit d starts in the output (the keys of
/// smaller digits in the whole input), plus the keys of digit d in the tiles before this one, plus
/// the key's rank among the tile's keys of digit d, in input order. Onesweep (radix stages 4 and
/// 5) computes exactly these three terms: the histogram kernel's scan, the look-back along the
/// digit and the block's ranking. Placed tile after tile, the keys come out stably sorted by the
/// digit.
#pragma once

#include "algorithm/hd.hpp"
#include "keys.hpp"

namespace stepwise::sort {

/// The most bits a digit of tile_digit_places() may have.
inline constexpr int kMaxPlaceDigitBits = 8;

/// The output place of each key of one tile in the digit pass at @p shift with digits of
/// @p width bits (1 to kMaxPlaceDigitBits): places[i] = digit_starts[d] + earlier[d] + the count
/// of keys before i in the tile with the same digit d, where d is the digit of
/// ordered_bits(keys[i]).
/// @param keys the tile's @p count keys, in input order
/// @param count the keys in the tile
/// @param shift the bit where this pass's digit starts in ordered_bits(key)
/// @param width the bits of a digit, 1 to kMaxPlaceDigitBits
/// @param digit_starts per digit value, the keys of the whole input with a smaller digit
/// @param earlier per digit value, the keys of that digit in the tiles before this one
/// @param places out: @p count places
template <class K, class Index>
STEPWISE_HD void tile_digit_places(const K* keys, int count, int shift, int width, const Index* digit_starts,
                                   const Index* earlier, Index* places) {
  Index seen[1 << kMaxPlaceDigitBits] = {};
  for (int i = 0; i < count; ++i) {
    const unsigned d = digit(ordered_bits(keys[i]), shift, width);
    places[i] = digit_starts[d] + earlier[d] + seen[d];
    ++seen[d];
  }
}

}  // namespace stepwise::sort
