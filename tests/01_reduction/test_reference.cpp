// CPU tests of chapter 01's reference: wrapping int32 sums and the float tolerance.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "reduce_reference.hpp"

using namespace stepwise::reduction;

TEST_CASE("int32 data is summed with two's-complement wrapping, mod 2^32") {
  CHECK(wrapping_sum({}) == 0u);
  CHECK(wrapping_sum(as_wrapping({-5, 3, 7})) == 5u);
  CHECK(wrapping_sum(as_wrapping({-5, 3})) == 0xFFFFFFFEu);  // -2
  // INT32_MAX + 1 wraps to INT32_MIN, whose bits are 0x80000000.
  CHECK(wrapping_sum(as_wrapping({std::numeric_limits<std::int32_t>::max(), 1})) == 0x80000000u);
  // INT32_MIN + INT32_MIN wraps to 0.
  CHECK(wrapping_sum(
            as_wrapping({std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::min()})) == 0u);
  CHECK(as_wrapping({-1}) == std::vector<std::uint32_t>{0xFFFFFFFFu});
}

TEST_CASE("wrapping sums do not depend on the order of additions") {
  const std::vector<std::int32_t> values = {2000000000, 2000000000, -2147483647 - 1, 123456789, -987654321, 5};
  std::vector<std::int32_t> reversed(values.rbegin(), values.rend());
  CHECK(wrapping_sum(as_wrapping(values)) == wrapping_sum(as_wrapping(reversed)));
  // By hand: 4e9 - 2^31 + 123456789 - 987654321 + 5 = 987654321 + ... computed in 64 bits, mod 2^32.
  const std::int64_t exact = 2000000000LL * 2 - 2147483648LL + 123456789 - 987654321 + 5;
  CHECK(wrapping_sum(as_wrapping(values)) == static_cast<std::uint32_t>(exact));
}

TEST_CASE("the float reference is a double sum, with the sum of absolute values as its error scale") {
  const FloatSum one = float_sum({1.5f, -2.5f, 0.25f});
  CHECK(one.sum == -0.75);
  CHECK(one.abs_sum == 4.25);
  // 2^24 + 1 is not a float sum, but it is a double sum.
  const FloatSum big = float_sum({16777216.0f, 1.0f});
  CHECK(big.sum == 16777217.0);
}

TEST_CASE("the summation depth bound, by hand") {
  // n = 1 on 132 SMs: first pass ceil(1 / 67584) + 16 = 17; trees 2 x (0 + 11) = 22;
  // partials ceil(132 / 2) + 1 = 67: 106.
  CHECK(summation_depth_bound(1, 132) == 106);
  // n = 2^28 on 132 SMs: ceil(2^28 / 67584) + 16 = 3972 + 16; trees 2 x (28 + 11) = 78; partials 67.
  CHECK(summation_depth_bound(std::size_t{1} << 28, 132) == 3988 + 78 + 67);
  CHECK(float_sum_tolerance(1, 132) == doctest::Approx(106 * 1.1920928955078125e-7));
  // More elements, or fewer SMs (fewer threads, longer serial chains), never tighten it.
  CHECK(summation_depth_bound(1000000, 132) <= summation_depth_bound(2000000, 132));
  CHECK(summation_depth_bound(1000000, 132) <= summation_depth_bound(1000000, 1) + 66);
}
