// The grader of exercise 09-1 (chapters/09_sort/exercises/README.md): the student's ordered words and 8-bit
// digits of int32 and float keys, against the chapter's (keys.hpp's ordered_bits and digit, which every row,
// the kernels and the CPU reference sort by): the named edge keys first, then random bit patterns.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "01_ordered_bits.hpp"
#include "exercise_checks.hpp"
#include "keys.hpp"

using namespace stepwise::sort;
using stepwise::testing::Differences;

namespace {

std::string hex(std::uint32_t value) {
  std::ostringstream text;
  text << "0x" << std::hex << value;
  return text.str();
}

float float_of_bits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

void compare(Differences& differences, const std::string& where, const exercises::KeyPrediction& yours,
             std::uint32_t model) {
  differences.compare(where + ", the word", hex(yours.bits), hex(model));
  for (int pass = 0; pass < 4; ++pass)
    differences.compare(where + ", the digit of pass " + std::to_string(pass), yours.digits[pass],
                        digit(model, 8 * pass, 8));
}

/// A fixed seed: the same keys on every run, so a failure names the same key twice.
constexpr std::uint32_t kSeed = 20261126;

}  // namespace

TEST_CASE("exercise 09-1: int32 keys, the edges and random ones") {
  std::vector<std::int32_t> keys = {std::numeric_limits<std::int32_t>::min(),
                                    std::numeric_limits<std::int32_t>::min() + 1,
                                    -65536,
                                    -256,
                                    -1,
                                    0,
                                    1,
                                    255,
                                    256,
                                    65535,
                                    std::numeric_limits<std::int32_t>::max()};
  std::mt19937 random(kSeed);
  for (int i = 0; i < 1000; ++i) keys.push_back(static_cast<std::int32_t>(random()));
  Differences differences;
  for (std::int32_t key : keys)
    compare(differences, "int32 " + std::to_string(key), exercises::predicted_int32(key), ordered_bits(key));
  differences.check();
}

TEST_CASE("exercise 09-1: float keys, -0.0, infinities, NaNs of both signs, denormals and random bit patterns") {
  // Named by their bit patterns: a NaN has no value to print.
  std::vector<std::uint32_t> patterns = {
      0xff800000u,  // -inf
      0xff7fffffu,  // -FLT_MAX
      0xbf800000u,  // -1.0
      0x80000001u,  // the negative denormal nearest zero
      0x80000000u,  // -0.0
      0x00000000u,  // +0.0
      0x00000001u,  // the smallest denormal
      0x3f000000u,  // 0.5
      0x3f800000u,  // 1.0
      0x7f7fffffu,  // FLT_MAX
      0x7f800000u,  // +inf
      0x7fc00000u,  // the quiet NaN
      0x7f800001u,  // a signalling NaN
      0xffc00000u,  // the quiet NaN with its sign bit set
      0xffffffffu,  // the NaN of all ones
  };
  std::mt19937 random(kSeed + 1);
  for (int i = 0; i < 1000; ++i) patterns.push_back(static_cast<std::uint32_t>(random()));
  Differences differences;
  for (std::uint32_t pattern : patterns) {
    const float key = float_of_bits(pattern);
    compare(differences, "float of bits " + hex(pattern), exercises::predicted_float(key), ordered_bits(key));
  }
  differences.check();
}

TEST_CASE("exercise 09-1: -0.0 and +0.0 are one word, and the words order the keys") {
  const exercises::KeyPrediction negative_zero = exercises::predicted_float(-0.0f);
  const exercises::KeyPrediction positive_zero = exercises::predicted_float(0.0f);
  CHECK_MESSAGE(negative_zero.bits == positive_zero.bits, "-0.0 and +0.0 must sort as equal keys");
  const float ordered[] = {-std::numeric_limits<float>::infinity(), -1e30f, -1.0f, -1e-40f, 0.0f, 1e-40f, 1.0f, 1e30f,
                           std::numeric_limits<float>::infinity()};
  for (std::size_t i = 1; i < sizeof ordered / sizeof ordered[0]; ++i) {
    CAPTURE(ordered[i - 1]);
    CAPTURE(ordered[i]);
    CHECK(exercises::predicted_float(ordered[i - 1]).bits < exercises::predicted_float(ordered[i]).bits);
  }
  CHECK(exercises::predicted_int32(-1).bits < exercises::predicted_int32(0).bits);
}
