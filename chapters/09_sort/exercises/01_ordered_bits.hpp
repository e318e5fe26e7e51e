/// @file 01_ordered_bits.hpp
/// Exercise 09-1 (README.md): the ordered bits of int32 and float keys, and their 8-bit digits.
#pragma once

#include <array>
#include <cstdint>

namespace stepwise::sort::exercises {

/// What one 32-bit key sorts by: its ordered word and the digit each pass of an 8-bit radix sort reads.
struct KeyPrediction {
  std::uint32_t bits = 0;            ///< the unsigned word whose order is the key's order (keys.hpp's ordered_bits)
  std::array<unsigned, 4> digits{};  ///< digits[p]: bits [8p, 8p + 8) of that word, the digit of pass p
};

/// Your function: the ordered word of the int32 @p key and its four 8-bit digits, least significant first.
KeyPrediction predicted_int32(std::int32_t key);

/// Your function: the ordered word of the float @p key (any bit pattern: -0.0, infinities and NaNs of either
/// sign included) and its four 8-bit digits, least significant first.
KeyPrediction predicted_float(float key);

}  // namespace stepwise::sort::exercises
