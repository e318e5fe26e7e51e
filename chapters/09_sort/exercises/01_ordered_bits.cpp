// Exercise 09-1: ordered bits and digits (README.md, "09-1").
//
// The lesson: a radix sort never compares two keys. It maps each key to an unsigned word whose
// unsigned order is the key's order, and then places keys by digits of that word, least
// significant first. For an int32 the word is the two's-complement bits with the sign bit flipped.
// For a float it is the IEEE bits with every bit flipped when the sign is set (a larger negative
// magnitude sorts first) and the sign bit set otherwise (every positive above every negative);
// -0.0 maps to the word of +0.0, and a NaN lands below -inf or above +inf by its sign bit.
//
// Predict first, by hand, in hex: the words and the four 8-bit digits of the int32 keys INT_MIN,
// -1, 0, 255 and INT_MAX, and of the floats -inf, -1.0, -0.0, +0.0, 1.0, +inf and the quiet NaN
// 0x7fc00000. Then write the two functions. Grade them with `ctest --test-dir build -L exercise-09`.
#include "01_ordered_bits.hpp"

#include "host/exercise.hpp"

namespace stepwise::sort::exercises {

KeyPrediction predicted_int32([[maybe_unused]] std::int32_t key) {
  // TODO: the word, with the sign bit flipped, then its bytes from the least significant up.
  throw NotDoneYet("09-1", "predicted_int32", __FILE__);
}

KeyPrediction predicted_float([[maybe_unused]] float key) {
  // TODO: the IEEE bits (std::memcpy), -0.0 as +0.0, flipped by the sign, then the word's bytes.
  throw NotDoneYet("09-1", "predicted_float", __FILE__);
}

}  // namespace stepwise::sort::exercises
