#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <vector>

#include "host/data.hpp"
#include "host/verify.hpp"

using namespace stepwise;

TEST_CASE("random_ints is deterministic, in range, and not constant") {
  const auto a = random_ints(10000, 7, -100, 100);
  const auto b = random_ints(10000, 7, -100, 100);
  const auto c = random_ints(10000, 8, -100, 100);
  CHECK(a == b);
  CHECK(a != c);
  CHECK(*std::min_element(a.begin(), a.end()) == -100);
  CHECK(*std::max_element(a.begin(), a.end()) == 100);
  CHECK(std::set<int>(a.begin(), a.end()).size() == 201);
  CHECK(std::count(a.begin(), a.end(), 0) < 200);  // not mostly zeros
}

TEST_CASE("random_ints covers the full int32 range") {
  const auto values =
      random_ints(100000, 1, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
  CHECK(*std::min_element(values.begin(), values.end()) < -2000000000);
  CHECK(*std::max_element(values.begin(), values.end()) > 2000000000);
}

TEST_CASE("random_floats is deterministic, in range, and not constant") {
  const auto a = random_floats(10000, 3, -1.0f, 1.0f);
  CHECK(a == random_floats(10000, 3, -1.0f, 1.0f));
  CHECK(a != random_floats(10000, 4, -1.0f, 1.0f));
  for (float value : a) REQUIRE((value >= -1.0f && value < 1.0f));
  CHECK(std::set<float>(a.begin(), a.end()).size() > 9900);
  CHECK(std::count_if(a.begin(), a.end(), [](float v) { return v < 0; }) > 4000);
  CHECK_THROWS_AS(random_floats(3, 1, 1.0f, 1.0f), std::invalid_argument);
}

TEST_CASE("compare_exact reports the first mismatch and the count") {
  CHECK(compare_exact(std::vector<int>{1, 2, 3}, std::vector<int>{1, 2, 3}).passed);
  const Check check = compare_exact(std::vector<int>{1, 9, 3, 8}, std::vector<int>{1, 2, 3, 4});
  CHECK_FALSE(check.passed);
  CHECK(check.detail.find("2 of 4") != std::string::npos);
  CHECK(check.detail.find("index 1") != std::string::npos);
  CHECK_FALSE(compare_exact(std::vector<int>{1}, std::vector<int>{1, 2}).passed);
}

TEST_CASE("compare_within scales the tolerance and rejects NaN") {
  const std::vector<double> want = {1.0, 1000.0};
  const std::vector<double> scale = {1.0, 1000.0};
  CHECK(compare_within(std::vector<float>{1.0005f, 1000.4f}, want, scale, 1e-3).passed);
  CHECK_FALSE(compare_within(std::vector<float>{1.002f, 1000.0f}, want, scale, 1e-3).passed);
  CHECK_FALSE(compare_within(std::vector<float>{std::nanf(""), 1000.0f}, want, scale, 1e-3).passed);
}
