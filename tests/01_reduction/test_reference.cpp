// CPU tests of chapter 01's reference: wrapping int32 sums, the float reference, and the
// float tolerance, against hand computations and against the worst rounding a summation of
// the bound's depth can have.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "reduce_reference.hpp"

using namespace stepwise;
using namespace stepwise::reduction;

namespace {

/// The error of the worst serial float sum of depth @p depth, relative to its sum of absolute
/// values: 1, then @p depth terms of 2^-24 + 2^-40 added one by one. The sum stays in
/// [1, 2), where floats are 2^-23 apart, so every addition rounds up by 2^-24 - 2^-40:
/// almost u = 2^-24 of the running sum, the most one rounding can lose.
double worst_chain_relative_error(std::size_t depth) {
  const float term = std::ldexp(1.0f, -24) + std::ldexp(1.0f, -40);
  float sum = 1.0f;
  double exact = 1.0;
  for (std::size_t i = 0; i < depth; ++i) {
    sum += term;
    exact += static_cast<double>(term);
  }
  return std::fabs(static_cast<double>(sum) - exact) / exact;
}

}  // namespace

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
  // The exact sum in 64 bits, reduced mod 2^32.
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

TEST_CASE("the chapter's input: the whole int32 range as uint32 bits, floats from -1 to 2, reproducible") {
  const std::vector<std::uint32_t> ints = random_input<std::uint32_t>(10000, 7);
  CHECK(ints == random_input<std::uint32_t>(10000, 7));
  CHECK(ints != random_input<std::uint32_t>(10000, 8));
  std::size_t negative = 0;
  for (std::uint32_t bits : ints) negative += bits >= 0x80000000u;
  CHECK(negative > 4000);
  CHECK(negative < 6000);
  for (float value : random_input<float>(10000, 7)) {
    CHECK(value >= -1.0f);
    CHECK(value < 2.0f);
  }
}

TEST_CASE("a sum is checked exactly for int32 and within the tolerance for float32") {
  CHECK(check_sum<std::uint32_t>({5u}, 5u, 0.0).passed);
  CHECK_FALSE(check_sum<std::uint32_t>({6u}, 5u, 1.0).passed);
  const FloatSum want{1.0, 100.0};
  CHECK(check_sum<float>({1.5f}, want, 0.005).passed);  // 0.5 <= 0.005 x 100
  CHECK_FALSE(check_sum<float>({1.5f}, want, 0.004).passed);
  CHECK_FALSE(check_sum<float>({std::numeric_limits<float>::quiet_NaN()}, want, 1.0).passed);
}

TEST_CASE("the summation depth bound, computed by hand") {
  // d = (ceil(n / (SMs x 512)) + 16) + 2 (ceil(log2 n) + 11) + (ceil(SMs / 2) + 1).
  // n = 1 on 132 SMs: (1 + 16) + 2 x (0 + 11) + (66 + 1).
  CHECK(summation_depth_bound(1, 132) == 17 + 22 + 67);
  // n = 2^28 on 132 SMs: ceil(2^28 / 67584) = 3972; (3972 + 16) + 2 x (28 + 11) + 67.
  CHECK(summation_depth_bound(std::size_t{1} << 28, 132) == 3988 + 78 + 67);
  // n = 10^6 on 1 SM: ceil(10^6 / 512) = 1954; ceil(log2 10^6) = 20; (1954 + 16) + 2 x (20 + 11) + (1 + 1).
  CHECK(summation_depth_bound(1000000, 1) == 1970 + 62 + 2);
  // n = 2^20 + 1 on 114 SMs: ceil(1048577 / 58368) = 18; ceil(log2 n) = 21; (18 + 16) + 2 x (21 + 11) + (57 + 1).
  CHECK(summation_depth_bound((std::size_t{1} << 20) + 1, 114) == 34 + 64 + 58);
  CHECK(float_sum_tolerance(1, 132) == doctest::Approx(106 * 1.1920928955078125e-7));
  // More elements never tighten it.
  for (std::size_t n = 1; n < 5000; ++n) REQUIRE(summation_depth_bound(n, 132) <= summation_depth_bound(n + 1, 132));
}

TEST_CASE("the tolerance admits the worst rounding at the bound's depth, and not much deeper") {
  const std::pair<std::size_t, int> cases[] = {
      {1, 132}, {std::size_t{1} << 22, 132}, {100003, 114}, {std::size_t{1} << 24, 16}, {std::size_t{1} << 20, 1}};
  for (const auto& [n, sms] : cases) {
    CAPTURE(n);
    CAPTURE(sms);
    const std::size_t depth = summation_depth_bound(n, sms);
    const double tolerance = float_sum_tolerance(n, sms);
    CHECK(worst_chain_relative_error(depth) <= tolerance);
    // d x eps32 = 2 d u: a worst-case chain a little over twice as deep is caught.
    CHECK(worst_chain_relative_error(2 * depth + depth / 4) > tolerance);
  }
}
