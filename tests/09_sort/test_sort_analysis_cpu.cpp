// CPU tests of chapter 09's --analyze (analysis.cpp): the digit skew of inputs whose histogram is
// known, the example's radix places and merge passes against a stable sort, the look-back's sums
// against the exclusive counts, and the text and JSON through the chapter's own spec. No GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis.hpp"
#include "chapter.hpp"
#include "cli_checks.hpp"
#include "inputs.hpp"
#include "keys.hpp"

using namespace stepwise;
using namespace stepwise::sort;
using namespace stepwise::testing;

TEST_CASE("digit_skew: one key per digit value, one repeated key, and a two-digit split") {
  std::vector<std::uint32_t> every_digit(256 * 3);
  for (std::size_t i = 0; i < every_digit.size(); ++i)
    every_digit[i] = static_cast<std::uint32_t>((i % 256) | ((i % 2) << 8) | (0x5au << 24));
  const std::vector<DigitSkew> skew = digit_skew(every_digit, 8);
  REQUIRE(skew.size() == 4);
  CHECK(skew[0].shift == 0);
  CHECK(skew[0].non_empty == 256);
  CHECK(skew[0].entropy_bits == doctest::Approx(8.0));
  CHECK(skew[0].largest_share == doctest::Approx(3.0 / 768));
  CHECK(skew[1].non_empty == 2);  // bit 8 alternates: digits 0 and 1, half each
  CHECK(skew[1].entropy_bits == doctest::Approx(1.0));
  CHECK(skew[1].largest_share == doctest::Approx(0.5));
  CHECK(skew[3].shift == 24);
  CHECK(skew[3].non_empty == 1);
  CHECK(skew[3].largest == 0x5au);
  CHECK(skew[3].largest_share == doctest::Approx(1.0));
  CHECK(skew[3].entropy_bits == 0.0);
  // int32 and float read ordered bits: -1 is 0x7fffffff, so its top digit is 0x7f.
  const std::vector<DigitSkew> signed_skew = digit_skew(std::vector<std::int32_t>{-1, -1, 5}, 8);
  CHECK(signed_skew[3].largest == 0x7fu);
  CHECK(signed_skew[3].largest_share == doctest::Approx(2.0 / 3));
  CHECK(digit_skew(std::vector<std::uint64_t>{1, 2}, 8).size() == 8);
  CHECK(digit_skew(std::vector<std::uint32_t>{}, 8)[0].largest_share == 0.0);
}

TEST_CASE("input_skew counts the run's own keys, and samples beyond kSkewKeys") {
  Plan plan;
  plan.input = parse_input("few:3");
  const InputSkew few = input_skew(plan, 5000, 7);
  CHECK_FALSE(few.sampled);
  CHECK(few.counted == 5000);
  for (const DigitSkew& pass : few.passes) CHECK(pass.non_empty <= 3);
  CHECK(input_skew(plan, 5000, 7).passes[0].entropy_bits == few.passes[0].entropy_bits);  // the same keys
  const std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(5000, plan.input, 7);
  CHECK(digit_skew(keys, 8)[2].largest_share == few.passes[2].largest_share);
  plan.input = parse_input("sorted");
  const InputSkew sorted = input_skew(plan, 5000, 7);
  plan.input = parse_input("uniform");
  const InputSkew uniform = input_skew(plan, 5000, 7);
  CHECK(sorted.passes[1].largest_share == uniform.passes[1].largest_share);  // the same keys, in order
  plan.input = parse_input("entropy:0");
  const InputSkew sampled = input_skew(plan, kSkewKeys + 1, 7);
  CHECK(sampled.sampled);
  CHECK(sampled.counted == kSkewKeys);
  for (const DigitSkew& pass : sampled.passes) CHECK(pass.non_empty == 1);
}

TEST_CASE("the radix example: tile_digit_places puts every pass where a stable sort by the digit does") {
  for (int tile : {1, 5, 6, 7, 24, 30}) {
    CAPTURE(tile);
    const std::vector<DigitPass> passes = radix_example(example_keys(), tile, 2, 6);
    REQUIRE(passes.size() == 3);
    for (const DigitPass& pass : passes) {
      std::vector<std::uint32_t> expected = pass.input;
      std::stable_sort(expected.begin(), expected.end(), [&](std::uint32_t a, std::uint32_t b) {
        return digit(a, pass.shift, 2) < digit(b, pass.shift, 2);
      });
      CHECK(pass.output == expected);
      CHECK(pass.tiles.size() == (example_keys().size() + tile - 1) / tile);
    }
    std::vector<std::uint32_t> sorted = example_keys();
    std::sort(sorted.begin(), sorted.end());
    CHECK(passes.back().output == sorted);
    CHECK(passes.back().output == sort_reference(example_keys(), {}).keys);  // the chapter's CPU reference
  }
  // 3 bits in 2-bit digits: the last pass reads one bit.
  const std::vector<DigitPass> odd = radix_example({5, 3, 7, 0, 6}, 2, 2, 3);
  REQUIRE(odd.size() == 2);
  CHECK(odd.back().output == std::vector<std::uint32_t>{0, 3, 5, 6, 7});
}

TEST_CASE("the look-back chain: every digit's walk sums to the tile's exclusive count and stops at a P") {
  for (int tile : {4, 5, 6, 8}) {
    CAPTURE(tile);
    const LookbackChain chain = lookback_chain(radix_example(example_keys(), tile, 2, 6).front());
    REQUIRE(chain.walks.size() == 4);
    for (std::size_t d = 0; d < chain.walks.size(); ++d) {
      CAPTURE(d);
      CHECK(chain.prefix[d] == chain.exclusive[static_cast<std::size_t>(chain.tile)][d]);
      REQUIRE_FALSE(chain.walks[d].empty());
      CHECK(chain.walks[d].back().flag == 'P');
      CHECK(chain.walks[d].front().tile == chain.tile - 1);
      for (std::size_t s = 0; s + 1 < chain.walks[d].size(); ++s) CHECK(chain.walks[d][s].flag == 'A');
    }
  }
  const LookbackChain chain = lookback_chain(radix_example(example_keys(), 6, 2, 6).front());
  CHECK(chain.walks[0].size() == 2);  // tile 1 has finished digit 0: P
  CHECK(chain.walks[1].size() == 3);  // ... not digit 1: the walk reaches tile 0
}

TEST_CASE("the merge example: each pass's tiles merge the ranges merge_sort_partition splits, into a stable sort") {
  for (int tile : {1, 3, 4, 5, 24, 32}) {
    CAPTURE(tile);
    const MergeExample example = merge_example(example_keys(), tile);
    std::vector<std::uint32_t> sorted = example_keys();
    std::sort(sorted.begin(), sorted.end());
    const std::vector<std::uint32_t>& result =
        example.passes.empty() ? example.block_sorted : example.passes.back().output;
    CHECK(result == sorted);
    CHECK(result == sort_reference(example_keys(), {}).keys);
    for (const MergePass& pass : example.passes) {
      std::vector<std::uint32_t> expected = pass.input;
      for (std::size_t first = 0; first < expected.size(); first += 2 * static_cast<std::size_t>(pass.width)) {
        const std::size_t last = std::min(expected.size(), first + 2 * static_cast<std::size_t>(pass.width));
        std::stable_sort(expected.begin() + static_cast<long>(first), expected.begin() + static_cast<long>(last));
      }
      CHECK(pass.output == expected);
      for (const MergeTile& t : pass.tiles) CHECK((t.a_end - t.a_begin) + (t.b_end - t.b_begin) == t.last - t.first);
    }
  }
  CHECK(merge_example(example_keys(), 4).passes.size() == 3);  // runs of 4, 8, 16 -> 24
}

TEST_CASE("--analyze prints the skew and the example as text, and the same numbers as JSON") {
  const ParseOutcome text = outcome_of(chapter(), {"--analyze", "--n", "1000", "--input", "few:2"});
  REQUIRE(text.code == 0);
  CHECK(text.out.find("all 1,000 keys") != std::string::npos);
  CHECK(text.out.find("tile 3 walks back") != std::string::npos);
  const ParseOutcome merge = outcome_of(chapter(), {"--analyze", "--problem", "merge", "--n", "2^25"});
  REQUIRE(merge.code == 0);
  CHECK(merge.out.find("sampled, the first 16,777,216 of 33,554,432 keys") != std::string::npos);
  CHECK(merge.out.find("pass 3 (runs of 16 -> 32)") != std::string::npos);
  const ParseOutcome json = outcome_of(chapter(), {"--analyze", "--format", "json", "--n", "1000", "--seed", "5"});
  REQUIRE(json.code == 0);
  const nlohmann::json document = nlohmann::json::parse(json.out);
  CHECK(document["analysis"] == "sort");
  CHECK(document["skew"]["seed"] == 5);
  CHECK(document["skew"]["passes"].size() == 4);
  CHECK(document["radix"].size() == 3);
  CHECK(document["merge"]["passes"].size() == 3);
  CHECK(document["lookback"]["tile"] == 3);
  CHECK(exit_code_of(chapter(), {"--analyze", "--format", "csv"}) == 2);
}
