/// @file keys.hpp
/// The one order every row of chapter 09 sorts by, written once for the host and the device: a
/// key is mapped to an unsigned word of its own width, `ordered_bits(key)`, whose unsigned order
/// is the key's order, and every row (the radix stages, the merge stages with their comparator,
/// the library rows and the CPU reference) sorts by that word, stably.
///
/// - uint32, uint64: the key itself.
/// - int32: the sign bit flipped, so that INT_MIN maps to 0 and INT_MAX to 0xffffffff.
/// - float: a negative float has all its bits flipped (a larger magnitude sorts first), a
///   positive one its sign bit set (above every negative). NaNs sort at the ends by their sign
///   bit: a NaN with the sign bit set below -inf, one without above +inf. Negative zero maps to
///   the word of +0.0, so the two zeros are equal and keep their input order, exactly as
///   cub::DeviceRadixSort (CCCL 3) treats them.
///
/// A radix sort then reads digits of that word, `digit(bits, shift, width)`, least significant
/// first.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "algorithm/hd.hpp"

namespace stepwise::sort {

/// uint32 keys: the key.
STEPWISE_HD inline std::uint32_t ordered_bits(std::uint32_t key) { return key; }
/// uint64 keys: the key.
STEPWISE_HD inline std::uint64_t ordered_bits(std::uint64_t key) { return key; }
/// int32 keys: the sign bit flipped.
STEPWISE_HD inline std::uint32_t ordered_bits(std::int32_t key) {
  return static_cast<std::uint32_t>(key) ^ 0x80000000u;
}
/// float keys: all bits flipped when negative, the sign bit set otherwise; -0.0 as +0.0.
STEPWISE_HD inline std::uint32_t ordered_bits(float key) {
  std::uint32_t bits;
  memcpy(&bits, &key, sizeof bits);
  if (bits == 0x80000000u) bits = 0;  // -0.0 sorts as +0.0
  return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}

/// The unsigned word a key of type K sorts by.
template <class K>
using OrderedBits = decltype(ordered_bits(K{}));

/// The bits of a key: the passes of a radix sort cover them all.
template <class K>
inline constexpr int kKeyBits = static_cast<int>(8 * sizeof(K));

/// The @p width bits of @p bits from bit @p shift up (width in [1, 16]).
template <class U>
STEPWISE_HD inline unsigned digit(U bits, int shift, int width) {
  static_assert(std::is_unsigned<U>::value, "digits are read from ordered_bits");
  return static_cast<unsigned>((bits >> shift) & ((U(1) << width) - 1));
}

/// Whether @p a sorts before @p b: the comparator of the merge rows and the CPU reference.
template <class K>
struct OrderedLess {
  STEPWISE_HD bool operator()(const K& a, const K& b) const { return ordered_bits(a) < ordered_bits(b); }
};

}  // namespace stepwise::sort
