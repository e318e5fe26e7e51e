// Exercise 09-1, solved: the sign bit decides everything. An int32 flips it; a float flips all
// its bits when it is set and sets it otherwise, after -0.0 has become +0.0. A digit is a shift and
// a mask of the word.
#include <cstring>

#include "01_ordered_bits.hpp"

namespace stepwise::sort::exercises {
namespace {

KeyPrediction with_digits(std::uint32_t bits) {
  KeyPrediction prediction;
  prediction.bits = bits;
  for (int pass = 0; pass < 4; ++pass) prediction.digits[pass] = (bits >> (8 * pass)) & 0xffu;
  return prediction;
}

}  // namespace

KeyPrediction predicted_int32(std::int32_t key) { return with_digits(static_cast<std::uint32_t>(key) ^ 0x80000000u); }

KeyPrediction predicted_float(float key) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &key, sizeof bits);
  if (bits == 0x80000000u) bits = 0;
  return with_digits((bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u);
}

}  // namespace stepwise::sort::exercises
