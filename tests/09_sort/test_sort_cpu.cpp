// CPU tests of chapter 09: the order every row sorts by (ordered_bits at -0.0, NaN, infinities,
// INT_MIN, the uint64 extremes), digits, the inputs, the reference (sorted, stable, parallel
// chunks merged right), the check of a row's output, the tables' traits, the options through the
// chapter's own spec and --analyze's counts. No GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "chapter.hpp"
#include "cli_checks.hpp"
#include "host/data.hpp"
#include "inputs.hpp"
#include "keys.hpp"
#include "plan.hpp"
#include "sort.hpp"
#include "tile_places.hpp"

using namespace stepwise;
using namespace stepwise::sort;
using namespace stepwise::testing;

namespace {

float float_of_bits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace

TEST_CASE("int32 keys order by their value: the sign bit flipped") {
  const std::vector<std::int32_t> ascending = {std::numeric_limits<std::int32_t>::min(), -1000000, -2, -1, 0, 1, 7,
                                               std::numeric_limits<std::int32_t>::max()};
  CHECK(ordered_bits(std::numeric_limits<std::int32_t>::min()) == 0u);
  CHECK(ordered_bits(std::numeric_limits<std::int32_t>::max()) == 0xffffffffu);
  for (std::size_t i = 1; i < ascending.size(); ++i) CHECK(ordered_bits(ascending[i - 1]) < ordered_bits(ascending[i]));
}

TEST_CASE("float keys order by value, -0.0 equals +0.0, NaNs at the ends by their sign") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float negative_nan = float_of_bits(bits_of(nan) | 0x80000000u);
  const std::vector<float> ascending = {negative_nan,
                                        -inf,
                                        -1e30f,
                                        -1.5f,
                                        -std::numeric_limits<float>::denorm_min(),
                                        0.0f,
                                        std::numeric_limits<float>::denorm_min(),
                                        1.0f,
                                        3e38f,
                                        inf,
                                        nan};
  for (std::size_t i = 1; i < ascending.size(); ++i) {
    CAPTURE(i);
    CHECK(ordered_bits(ascending[i - 1]) < ordered_bits(ascending[i]));
  }
  CHECK(ordered_bits(-0.0f) == ordered_bits(0.0f));
  CHECK(ordered_bits(0.0f) == 0x80000000u);
  CHECK(ordered_bits(-inf) < ordered_bits(-0.0f));
  CHECK(ordered_bits(-0.0f) < ordered_bits(std::numeric_limits<float>::denorm_min()));
}

TEST_CASE("unsigned keys are their own ordered bits") {
  CHECK(ordered_bits(std::uint32_t{0}) == 0u);
  CHECK(ordered_bits(std::uint32_t{0xdeadbeefu}) == 0xdeadbeefu);
  CHECK(ordered_bits(~std::uint64_t{0}) == ~std::uint64_t{0});
  CHECK(ordered_bits(std::uint64_t{1} << 63) == std::uint64_t{1} << 63);
}

TEST_CASE("digit reads width bits from shift up") {
  CHECK(digit(0xabcd1234u, 0, 4) == 0x4u);
  CHECK(digit(0xabcd1234u, 28, 4) == 0xau);
  CHECK(digit(0xabcd1234u, 8, 8) == 0x12u);
  CHECK(digit(0xabcd1234u, 31, 1) == 1u);
  CHECK(digit(0xabcd1234u, 0, 1) == 0u);
  CHECK(digit(std::uint64_t{0xfedcba9876543210ull}, 56, 8) == 0xfeu);
  CHECK(digit(std::uint64_t{0xfedcba9876543210ull}, 60, 4) == 0xfu);
  CHECK(digit(0xffffffffu, 20, 11) == 0x7ffu);
}

TEST_CASE("--input parses every class and refuses the rest") {
  using Kind = InputClass::Kind;
  CHECK(parse_input("uniform") == InputClass{Kind::uniform, 0});
  CHECK(parse_input("entropy:0") == InputClass{Kind::entropy, 0});
  CHECK(parse_input("entropy:5") == InputClass{Kind::entropy, 5});
  CHECK(parse_input("sorted") == InputClass{Kind::sorted, 0});
  CHECK(parse_input("reversed") == InputClass{Kind::reversed, 0});
  CHECK(parse_input("equal") == InputClass{Kind::equal, 0});
  CHECK(parse_input("few:300") == InputClass{Kind::few, 300});
  for (const char* bad : {"entropy:6", "entropy:-1", "entropy", "few:0", "few:", "sorted:1", "random", "", "few:1e3"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_input(bad), std::invalid_argument);
  }
  for (const InputClass& input : all_input_classes()) CHECK(parse_input(to_string(input)) == input);
}

TEST_CASE_TEMPLATE("the reference sorts stably by ordered_bits, across its parallel chunks", K, std::uint32_t,
                   std::int32_t, float, std::uint64_t) {
  for (const InputClass& input : all_input_classes())
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{1000}, (std::size_t{1} << 21) + 17}) {
      const std::uint64_t seed = fresh_seed();
      CAPTURE(to_string(input));
      CAPTURE(n);
      CAPTURE(seed);
      const std::vector<K> keys = make_keys<K>(n, input, seed);
      const std::vector<Value> values = make_values(n);
      const Sorted<K> sorted = sort_reference(keys, values);
      REQUIRE(sorted.keys.size() == n);
      REQUIRE(sorted.values.size() == n);
      bool in_order = true;
      for (std::size_t i = 0; i < n; ++i) {
        // values are the input positions: each output key is the input key at its value
        in_order =
            in_order && std::memcmp(&keys[static_cast<std::size_t>(sorted.values[i])], &sorted.keys[i], sizeof(K)) == 0;
        if (i > 0) {
          const auto before = ordered_bits(sorted.keys[i - 1]);
          const auto here = ordered_bits(sorted.keys[i]);
          in_order = in_order && (before < here || (before == here && sorted.values[i - 1] < sorted.values[i]));
        }
      }
      CHECK(in_order);
      CHECK(sort_reference(keys, {}).values.empty());
    }
}

TEST_CASE_TEMPLATE("the input classes draw what they say, never all zeros or all ones", K, std::uint32_t,
                   std::uint64_t) {
  using Kind = InputClass::Kind;
  const std::size_t n = 100003;
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const auto distinct = [](const std::vector<K>& keys) { return std::set<K>(keys.begin(), keys.end()).size(); };
  const auto ones = [](const std::vector<K>& keys) {
    double bits = 0;
    for (K key : keys) bits += static_cast<double>(__builtin_popcountll(static_cast<unsigned long long>(key)));
    return bits / static_cast<double>(keys.size() * 8 * sizeof(K));
  };
  const std::vector<K> equal = make_keys<K>(n, {Kind::equal, 0}, seed);
  CHECK(distinct(equal) == 1);
  CHECK(equal[0] != K(0));
  CHECK(equal[0] != static_cast<K>(~K(0)));
  CHECK(distinct(make_keys<K>(n, {Kind::entropy, 0}, seed)) == 1);
  CHECK(distinct(make_keys<K>(n, {Kind::few, 7}, seed)) <= 7);
  CHECK(distinct(make_keys<K>(n, {Kind::few, 7}, seed)) >= 2);
  CHECK(distinct(make_keys<K>(n, {Kind::uniform, 0}, seed)) > n - 10);
  CHECK(ones(make_keys<K>(n, {Kind::uniform, 0}, seed)) == doctest::Approx(0.5).epsilon(0.02));
  CHECK(ones(make_keys<K>(n, {Kind::entropy, 3}, seed)) == doctest::Approx(0.125).epsilon(0.05));
  CHECK(ones(make_keys<K>(n, {Kind::entropy, 5}, seed)) == doctest::Approx(1.0 / 32).epsilon(0.1));
  const std::vector<K> sorted = make_keys<K>(n, {Kind::sorted, 0}, seed);
  CHECK(std::is_sorted(sorted.begin(), sorted.end()));
  std::vector<K> reversed = make_keys<K>(n, {Kind::reversed, 0}, seed);
  std::reverse(reversed.begin(), reversed.end());
  CHECK(reversed == sorted);
  const std::vector<Value> values = make_values(n);
  CHECK(values[0] == 0);
  CHECK(values[n - 1] == static_cast<Value>(n - 1));
}

TEST_CASE("the check names wrong keys, values out of input order and poison") {
  const std::vector<float> keys = {2.0f, -0.0f, 1.0f, 0.0f, std::numeric_limits<float>::quiet_NaN()};
  const std::vector<Value> values = make_values(keys.size());
  const Sorted<float> reference = sort_reference(keys, values);
  CHECK(bits_of(reference.keys[0]) == bits_of(-0.0f));  // the two zeros are equal: input order
  CHECK(bits_of(reference.keys[1]) == bits_of(0.0f));
  CHECK(std::isnan(reference.keys[4]));
  CHECK(check_sorted(reference.keys, reference.values, reference).passed);
  std::vector<float> swapped_zeros = reference.keys;
  std::swap(swapped_zeros[0], swapped_zeros[1]);
  CHECK_FALSE(check_sorted(swapped_zeros, reference.values, reference).passed);
  std::vector<Value> swapped_values = reference.values;
  std::swap(swapped_values[0], swapped_values[1]);
  const Check unstable = check_sorted(reference.keys, swapped_values, reference);
  CHECK_FALSE(unstable.passed);
  CHECK(unstable.detail.find("values differ") != std::string::npos);
  std::vector<float> poisoned = reference.keys;
  std::memset(&poisoned[2], 0xff, sizeof(float));
  CHECK_FALSE(check_sorted(poisoned, reference.values, reference).passed);
  CHECK_FALSE(check_sorted(std::vector<float>(3), reference.values, reference).passed);
}

TEST_CASE("both tables: rows numbered in order, every row stable and of its table's algorithm") {
  for (Algorithm algorithm : {Algorithm::radix, Algorithm::merge}) {
    const std::vector<SortStage<std::uint32_t>>& table = sort_stages<std::uint32_t>(algorithm);
    REQUIRE(table.size() >= 3);
    int number = 0;
    int libraries = 0;
    for (const SortStage<std::uint32_t>& stage : table) {
      CAPTURE(stage.name);
      CHECK(stage.traits.stable);
      CHECK(stage.traits.algorithm == algorithm);
      CHECK((stage.launch != nullptr));
      if (stage.kind == RowKind::kernel) {
        CHECK(stage.number == ++number);
        CHECK((algorithm == Algorithm::radix ? stage.traits.digit_bits : stage.traits.first_run) > 0);
        CHECK(stage.traits.launches_per_pass + stage.traits.launches_per_sort > 0);
        CHECK(stage.traits.key_writes_per_pass > 0);
      } else {
        ++libraries;
      }
    }
    CHECK(number >= 1);
    CHECK(libraries == 2);
  }
}

TEST_CASE("the options bind to the plan") {
  const Plan plan = plan_of(chapter(), {"--problem", "merge", "--key", "float32", "--input", "few:9", "--pairs"});
  CHECK(plan.problem == Algorithm::merge);
  CHECK(plan.key == KeyType::float32);
  CHECK(plan.input == InputClass{InputClass::Kind::few, 9});
  CHECK(plan.pairs);
  const Plan defaults = plan_of(chapter(), {});
  CHECK(defaults.problem == Algorithm::radix);
  CHECK(defaults.key == KeyType::uint32);
  CHECK(defaults.input == InputClass{});
  CHECK_FALSE(defaults.pairs);
}

TEST_CASE("bad options are refused with exit 2 and one line naming what was typed") {
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{{"--problem", "quick"},
                                                                                   {"--key", "int64"},
                                                                                   {"--input", "entropy:9"},
                                                                                   {"--input", "few:0"},
                                                                                   {"--analyze", "--pairs"},
                                                                                   {"--pairs=1"}}) {
    CAPTURE(bad.front());
    CHECK(exit_code_of(chapter(), bad) == 2);
    const std::string line = refusal_of(chapter(), bad);
    CHECK(line.find(bad.back().substr(0, 5)) != std::string::npos);
  }
}

TEST_CASE("--analyze counts each kernel row's passes, launches and bytes from its traits") {
  const ParseOutcome radix = outcome_of(chapter(), {"--analyze", "--n", "1000", "--key", "uint64"});
  REQUIRE(radix.code == 0);
  for (const SortStage<std::uint32_t>& stage : radix_stages<std::uint32_t>()) {
    if (stage.kind != RowKind::kernel) continue;
    CAPTURE(stage.name);
    const int passes = (64 + stage.traits.digit_bits - 1) / stage.traits.digit_bits;
    CHECK(radix.out.find(stage.name) != std::string::npos);
    CHECK(radix.out.find(" " + std::to_string(passes) + " ") != std::string::npos);
  }
  const ParseOutcome merge = outcome_of(chapter(), {"--analyze", "--n", "1025", "--problem", "merge"});
  REQUIRE(merge.code == 0);
  CHECK(merge.out.find("pairwise") != std::string::npos);
  CHECK(merge.out.find(" 11 ") != std::string::npos);  // runs of 1 to 2048 > 1025: 11 passes
}

TEST_CASE_TEMPLATE("radix stage 5: its default tile is among its sweep, and each variant undoes one change", K,
                   std::uint32_t, std::uint64_t) {
  const std::vector<SortStage<K>>& table = radix_stages<K>();
  const auto tuned = std::find_if(table.begin(), table.end(), [](const SortStage<K>& s) { return s.number == 5; });
  REQUIRE(tuned != table.end());
  CHECK(tuned->name == "tuned");
  CHECK(shapes_by_n_problem(*tuned).empty());
  CHECK(std::find(tuned->sweep.begin(), tuned->sweep.end(), tuned->shape) != tuned->sweep.end());
  // Tiles of more keys than shared memory holds are left out of the sweep: 384 x 16 keys of 8 bytes
  // is 48 KiB of keys alone.
  const bool has_384x16 =
      std::find(tuned->sweep.begin(), tuned->sweep.end(), LaunchShape{384, 16, 0}) != tuned->sweep.end();
  CHECK(has_384x16 == (sizeof(K) == 4));
  std::set<std::string> changes;
  for (const SortStage<K>& variant : tuned->variants) {
    CAPTURE(variant.variant);
    CHECK_FALSE(variant.variant.empty());
    CHECK(variant.sweep.empty());
    CHECK((variant.launch != nullptr));
    CHECK(std::find(tuned->sweep.begin(), tuned->sweep.end(), variant.shape) != tuned->sweep.end());
    changes.insert(variant.variant);
  }
  CHECK(changes == std::set<std::string>{"early counts", "warp counts", "match instruction", "warp ranking", "tile",
                                         "occupancy", "histogram", "PTX votes", "counts first", "look-back window",
                                         "direct write-out"});
}

TEST_CASE_TEMPLATE("merge stage 3: its default tile is among its sweep, and each variant undoes one change", K,
                   std::uint32_t, std::uint64_t) {
  const std::vector<SortStage<K>>& table = merge_stages<K>();
  const auto tuned = std::find_if(table.begin(), table.end(), [](const SortStage<K>& s) { return s.number == 3; });
  REQUIRE(tuned != table.end());
  CHECK(tuned->name == "tuned");
  CHECK(std::find(tuned->sweep.begin(), tuned->sweep.end(), tuned->shape) != tuned->sweep.end());
  CHECK(tuned->traits.first_run == tuned->shape.threads * tuned->shape.items);
  // 256 x 17 pairs of 8-byte keys need 52 KiB of shared memory: left out of the sweep.
  const bool has_256x17 =
      std::find(tuned->sweep.begin(), tuned->sweep.end(), LaunchShape{256, 17, 0}) != tuned->sweep.end();
  CHECK(has_256x17 == (sizeof(K) == 4));
  std::set<std::string> changes;
  for (const SortStage<K>& variant : tuned->variants) {
    CAPTURE(variant.variant);
    CHECK(variant.sweep.empty());
    CHECK((variant.launch != nullptr));
    CHECK(std::find(tuned->sweep.begin(), tuned->sweep.end(), variant.shape) != tuned->sweep.end());
    CHECK(variant.traits.first_run == variant.shape.threads * variant.shape.items);
    changes.insert(variant.variant);
  }
  CHECK(changes == std::set<std::string>{"boundary search", "dependent launch", "tile"});
}

TEST_CASE_TEMPLATE("a radix pass's places, tile after tile, sort stably by the digit, and every pass sorts", K,
                   std::uint32_t, std::int32_t, float, std::uint64_t) {
  for (const InputClass& input : all_input_classes())
    for (int width : {1, 4, 8}) {
      const std::uint64_t seed = fresh_seed();
      CAPTURE(to_string(input));
      CAPTURE(width);
      CAPTURE(seed);
      const std::size_t n = 5003;
      const int tile = 250;  // the last tile is short
      const std::vector<K> keys = make_keys<K>(n, input, seed);
      const std::vector<Value> values = make_values(n);
      std::vector<K> pass_keys = keys;
      std::vector<Value> pass_values = values;
      const std::size_t radix = std::size_t{1} << width;
      bool every_pass_in_digit_order = true;
      for (int shift = 0; shift < kKeyBits<K>; shift += width) {
        std::vector<std::uint64_t> starts(radix, 0);
        for (const K& key : pass_keys) ++starts[digit(ordered_bits(key), shift, width)];
        std::uint64_t running = 0;
        for (std::uint64_t& start : starts) running += std::exchange(start, running);
        std::vector<std::uint64_t> earlier(radix, 0);
        std::vector<K> out_keys(n);
        std::vector<Value> out_values(n);
        std::vector<std::uint64_t> places(tile);
        for (std::size_t first = 0; first < n; first += tile) {
          const int count = static_cast<int>(std::min<std::size_t>(tile, n - first));
          tile_digit_places(pass_keys.data() + first, count, shift, width, starts.data(), earlier.data(),
                            places.data());
          for (int i = 0; i < count; ++i) {
            REQUIRE(places[i] < n);
            out_keys[places[i]] = pass_keys[first + i];
            out_values[places[i]] = pass_values[first + i];
            ++earlier[digit(ordered_bits(pass_keys[first + i]), shift, width)];
          }
        }
        for (std::size_t i = 1; i < n; ++i) {
          const unsigned before = digit(ordered_bits(out_keys[i - 1]), shift, width);
          const unsigned here = digit(ordered_bits(out_keys[i]), shift, width);
          every_pass_in_digit_order = every_pass_in_digit_order && before <= here;
        }
        pass_keys = out_keys;
        pass_values = out_values;
      }
      CHECK(every_pass_in_digit_order);
      const Sorted<K> reference = sort_reference(keys, values);
      // the values are the input positions: equal to the reference's only if every pass was stable
      const Check check = check_sorted(pass_keys, pass_values, reference);
      CHECK_MESSAGE(check.passed, check.detail);
    }
}

TEST_CASE("the check counts wrong keys in every parallel chunk and names the first") {
  const std::size_t n = (std::size_t{1} << 21) + 17;  // three chunks of the parallel loops
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const Sorted<std::uint32_t> reference = sort_reference(make_keys<std::uint32_t>(n, {}, seed), make_values(n));
  std::vector<std::uint32_t> keys = reference.keys;
  std::vector<Value> values = reference.values;
  keys[(std::size_t{1} << 21) + 3] ^= 1u;
  keys[(std::size_t{1} << 20) + 5] ^= 1u;
  values[n - 1] ^= 1;
  const Check check = check_sorted(keys, values, reference);
  CHECK_FALSE(check.passed);
  CHECK(check.detail.find("2 of " + std::to_string(n) + " keys differ; first at index 1048581") == 0);
  CHECK(check.detail.find("1 of " + std::to_string(n) + " values differ") != std::string::npos);
  CHECK(check.detail.find("first at index " + std::to_string(n - 1)) != std::string::npos);
}
