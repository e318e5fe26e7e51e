#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>
#include <vector>

#include "host/data.hpp"
#include "host/parallel.hpp"
#include "host/parallel_sort.hpp"
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

TEST_CASE("for_each_range covers [0, count) once, in ranges of the chunk") {
  for (const std::uint64_t count :
       {std::uint64_t{0}, std::uint64_t{1}, kHostChunk - 1, kHostChunk, 3 * kHostChunk + 5}) {
    CAPTURE(count);
    std::vector<std::atomic<int>> visits(count);
    std::atomic<int> ranges{0};
    for_each_range(count, kHostChunk, [&](std::uint64_t first, std::uint64_t last) {
      CHECK(first % kHostChunk == 0);
      CHECK(last == std::min(count, first + kHostChunk));
      for (std::uint64_t i = first; i < last; ++i) ++visits[i];
      ++ranges;
    });
    CHECK(ranges == static_cast<int>((count + kHostChunk - 1) / kHostChunk));
    CHECK(std::all_of(visits.begin(), visits.end(), [](const std::atomic<int>& v) { return v == 1; }));
  }
}

TEST_CASE("random_ints and random_floats draw element i from (seed, i) alone, across chunks") {
  const std::size_t n = 2 * kHostChunk + 3;  // three chunks of the parallel loop
  const auto ints = random_ints(n, 11, -1000, 1000);
  const auto short_ints = random_ints(1000, 11, -1000, 1000);
  CHECK(std::equal(short_ints.begin(), short_ints.end(), ints.begin()));
  CHECK(std::set<int>(ints.end() - 5000, ints.end()).size() > 1500);  // the last chunk is drawn too, not left zero
  const auto floats = random_floats(n, 11, 0.0f, 1.0f);
  const auto short_floats = random_floats(1000, 11, 0.0f, 1.0f);
  CHECK(std::equal(short_floats.begin(), short_floats.end(), floats.begin()));
  CHECK(std::count(floats.end() - 5000, floats.end(), 0.0f) < 10);
}

TEST_CASE("compare_exact and compare_within count mismatches in every chunk and name the first") {
  const std::size_t n = 3 * kHostChunk + 7;
  const std::vector<int> want = random_ints(n, 5, -50, 50);
  std::vector<int> got = want;
  CHECK(compare_exact(got, want).passed);
  for (const std::size_t i : {3 * kHostChunk + 2, kHostChunk + 9, std::size_t{5}}) got[i] += 1;
  const Check exact = compare_exact(got, want);
  CHECK_FALSE(exact.passed);
  CHECK(exact.detail.find("3 of " + std::to_string(n)) != std::string::npos);
  CHECK(exact.detail.find("index 5:") != std::string::npos);

  std::vector<double> sums(n, 1.0), scales(n, 1.0);
  std::vector<float> values(n, 1.0f);
  CHECK(compare_within(values, sums, scales, 1e-6).passed);
  values[2 * kHostChunk + 1] = std::nanf("");
  values[n - 1] = 1.5f;
  const Check within = compare_within(values, sums, scales, 1e-6);
  CHECK_FALSE(within.passed);
  CHECK(within.detail.find("2 of " + std::to_string(n)) != std::string::npos);
  CHECK(within.detail.find("index " + std::to_string(2 * kHostChunk + 1) + ":") != std::string::npos);
}

TEST_CASE("parallel_sort sorts as std::sort does, across its merge levels") {
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, 5 * kHostChunk + 123}) {
    CAPTURE(n);
    const auto drawn =
        random_ints(n, 21, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
    std::vector<std::int64_t> items(drawn.begin(), drawn.end());
    for (std::size_t i = 0; i < n; i += 7) items[i] = 42;  // runs of equal keys across the pieces
    std::vector<std::int64_t> want = items;
    std::sort(want.begin(), want.end());
    parallel_sort(items);
    CHECK(items == want);
  }
}
