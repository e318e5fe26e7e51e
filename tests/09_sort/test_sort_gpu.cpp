// GPU tests of chapter 09: every row of both tables (variant rows included), every key type, keys
// only and pairs, at the sizes where sort bugs live (n = 1, 2, 3, a warp, 1000, a tile + 1, whole
// tiles, 2^20 + 17 and one size above 2^24), on every input class (uniform, entropy:K, sorted, reversed,
// equal, few:D), and every shape of every --sweep; keys that test the order itself (-0.0 and
// +0.0, NaNs of both signs, infinities, INT_MIN). Outputs are poisoned first and seeds are fresh;
// every row must match the stable reference exactly (keys as bit patterns, values in input
// order among equal keys), and nothing may be written outside any buffer. A new stage is tested
// with no edit here. The checks (sort_checks.hpp) are the ones the grader of exercise 09-4 runs
// on the student's stage.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "host/data.hpp"
#include "problems.hpp"
#include "sort.hpp"
#include "sort_checks.hpp"

using namespace stepwise;
using namespace stepwise::sort;
using namespace stepwise::testing;

namespace {

/// Every row of both tables, each stage followed by its variant rows.
template <class K>
std::vector<SortStage<K>> all_rows() {
  std::vector<SortStage<K>> rows = with_variants(sort_stages<K>(Algorithm::radix));
  for (SortStage<K>& row : with_variants(sort_stages<K>(Algorithm::merge))) rows.push_back(std::move(row));
  return rows;
}

/// Every row of both tables on @p problem at its default shape.
template <class K>
void check_rows(SortProblem<K>& problem) {
  check_sort_rows(problem, all_rows<K>(), false);
}

}  // namespace

TEST_CASE_TEMPLATE("every row sorts every input class exactly and stably at the edge sizes", K, std::uint32_t,
                   std::int32_t, float, std::uint64_t) {
  check_sort_inputs<K>(all_rows<K>(), sort_small_sizes(), all_input_classes());
}

TEST_CASE_TEMPLATE("every row sorts exactly and stably above 2^24 keys", K, std::uint32_t, std::int32_t, float,
                   std::uint64_t) {
  check_sort_inputs<K>(all_rows<K>(), {kSortLargeSize}, sort_large_inputs());
}

TEST_CASE_TEMPLATE("every shape of every --sweep sorts exactly", K, std::uint32_t, std::uint64_t) {
  check_sort_sweep_shapes<K>(all_rows<K>());
}

TEST_CASE_TEMPLATE("the rows that read --digit-bits sort exactly with 8-bit and 4-bit digits", K, std::uint32_t, float,
                   std::uint64_t) {
  CHECK(check_sort_digit_bits<K>(with_variants(sort_stages<K>(Algorithm::radix))).runs > 0);
}

TEST_CASE("float keys: -0.0 and +0.0 keep their input order, NaNs go to the ends by their sign") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::uint32_t negative_nan_bits;
  std::memcpy(&negative_nan_bits, &nan, sizeof nan);
  negative_nan_bits |= 0x80000000u;
  float negative_nan;
  std::memcpy(&negative_nan, &negative_nan_bits, sizeof negative_nan);
  const std::vector<float> specials = {
      0.0f, -0.0f, nan, -inf, inf, negative_nan, -1.0f, 1.0f, std::numeric_limits<float>::denorm_min(), -0.0f, 0.0f};
  for (std::size_t n : {specials.size(), std::size_t{5000}}) {
    CAPTURE(n);
    std::vector<float> keys = random_floats(n, fresh_seed(), -2.0f, 2.0f);
    for (std::size_t i = 0; i < n; ++i) keys[i] = specials[i % specials.size()];
    for (bool pairs : {false, true}) {
      CAPTURE(pairs);
      SortProblem<float> problem(keys, pairs);
      check_rows(problem);
    }
  }
}

TEST_CASE("int32 keys at the extremes sort by value") {
  std::vector<std::int32_t> keys = random_ints(3000, fresh_seed(), -5, 5);
  for (std::size_t i = 0; i < keys.size(); i += 7) keys[i] = std::numeric_limits<std::int32_t>::min();
  for (std::size_t i = 3; i < keys.size(); i += 11) keys[i] = std::numeric_limits<std::int32_t>::max();
  SortProblem<std::int32_t> problem(keys, true);
  check_rows(problem);
}

TEST_CASE("a kernel row refuses a shape that is not compiled before anything is launched") {
  SortProblem<std::uint32_t> problem(1000, Plan{}, fresh_seed());
  int refused = 0;
  for (Algorithm algorithm : {Algorithm::radix, Algorithm::merge})
    for (const SortStage<std::uint32_t>& stage : with_variants(sort_stages<std::uint32_t>(algorithm))) {
      if (stage.kind != RowKind::kernel) continue;
      CAPTURE(stage.name);
      LaunchShape bad = stage.shape;
      bad.threads = 100;
      CHECK_THROWS_AS(problem.launch(stage, bad, nullptr), std::invalid_argument);
      ++refused;
    }
  CHECK(refused >= 2);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
}
