// CPU tests of chapter 06: the inputs (selectivity and runs, keys on the right side of 0, flags
// set exactly where kept, reproducible from the seed), the reference (both forms keep the same
// elements), the check every row goes through (ordered and unordered, counts, payloads, writes
// past the kept count), the radix sort behind the multiset check, the option parsers, and the
// --analyze counts, packings and look-back example (table and JSON).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "chapter.hpp"
#include "cli_checks.hpp"
#include "compaction.hpp"
#include "inputs.hpp"
#include "plan.hpp"
#include "problems.hpp"

using namespace stepwise;
using namespace stepwise::compaction;

namespace {

Pattern runs(std::uint64_t length) {
  Pattern pattern;
  pattern.kind = Pattern::Kind::runs;
  pattern.run = length;
  return pattern;
}

/// The predicate table as --analyze sees it: names, default shapes and traits.
std::vector<SelectRow> analyzed_stages() { return facts_of(select_stages<std::int32_t>(Form::predicate)); }

/// Its kernel rows, in the order stage_costs returns their costs.
std::vector<SelectRow> kernel_rows() {
  std::vector<SelectRow> rows;
  for (const SelectRow& row : analyzed_stages())
    if (row.kind == RowKind::kernel) rows.push_back(row);
  return rows;
}

/// The index among kernel_rows() of the first row whose counter atomics go @p where.
std::size_t first_counting(CounterAtomics where) {
  const std::vector<SelectRow> rows = kernel_rows();
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].traits.cost.counter_atomics == where) return i;
  FAIL("no row counts atomics that way");
  return 0;
}

}  // namespace

TEST_CASE("--selectivity reads percentages and fractions in [0, 1] and refuses the rest") {
  CHECK(parse_selectivity("50%") == doctest::Approx(0.5));
  CHECK(parse_selectivity("0.5%") == doctest::Approx(0.005));
  CHECK(parse_selectivity("1") == 1.0);
  CHECK(parse_selectivity("0") == 0.0);
  CHECK(parse_selectivity("100%") == 1.0);
  CHECK(parse_selectivity("0.25") == doctest::Approx(0.25));
  for (const char* bad : {"", "%", "101%", "1.5", "-1%", "abc", "1e-2", "..", ".", "50 %", "0x1"})
    CHECK_THROWS_AS(parse_selectivity(bad), std::invalid_argument);
}

TEST_CASE("--pattern reads random and runs:R and refuses the rest") {
  CHECK(parse_pattern("random") == Pattern{});
  CHECK(parse_pattern("runs:1000") == runs(1000));
  CHECK(to_string(parse_pattern("runs:7")) == "runs:7");
  for (const char* bad : {"", "runs", "runs:", "runs:0", "runs:-3", "runs:abc", "runs:2^50", "sorted"})
    CHECK_THROWS_AS(parse_pattern(bad), std::invalid_argument);
}

TEST_CASE("the kept share is the selectivity, exactly at 0 and 1, within sampling error between") {
  const std::size_t n = 1 << 20;
  for (double p : {0.0, 0.01, 0.5, 0.99, 1.0})
    for (const Pattern& pattern : {Pattern{}, runs(1000)}) {
      CAPTURE(p);
      CAPTURE(to_string(pattern));
      const SelectInput<std::int32_t> input = make_input<std::int32_t>(n, p, pattern, false, 42);
      const std::size_t kept = select_reference(input, false).keys.size();
      if (p == 0.0) CHECK(kept == 0);
      if (p == 1.0) CHECK(kept == n);
      // Runs of 1000 make the kept count a sum of n / 1000 coin flips of weight 1000.
      const double units = pattern.kind == Pattern::Kind::runs ? static_cast<double>(n) / 1000.0 : n;
      const double sigma = std::sqrt(p * (1 - p) / units);
      CHECK(std::abs(static_cast<double>(kept) / n - p) <= 5 * sigma + 1e-12);
    }
}

TEST_CASE("runs:R keeps or drops whole runs of R elements") {
  const std::size_t n = 100000;
  for (std::uint64_t length : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{1000}})
    for (std::size_t i = 0; i < n; ++i)
      if (i % length != 0) REQUIRE(is_kept(9, i, 0.5, runs(length)) == is_kept(9, i - 1, 0.5, runs(length)));
  // ... and they are not all the same run.
  std::size_t kept_runs = 0;
  for (std::size_t run = 0; run < 100; ++run) kept_runs += is_kept(9, run * 1000, 0.5, runs(1000));
  CHECK(kept_runs > 20);
  CHECK(kept_runs < 80);
}

TEST_CASE_TEMPLATE("keys are below 0 exactly where kept, flags are set exactly there, and nothing is constant", K,
                   std::int32_t, float) {
  const std::size_t n = 200003;
  const SelectInput<K> input = make_input<K>(n, 0.5, {}, true, 7);
  REQUIRE(input.keys.size() == n);
  REQUIRE(input.flags.size() == n);
  REQUIRE(input.values.size() == n);
  for (std::size_t i = 0; i < n; ++i) {
    const bool kept = is_kept(7, i, 0.5, {});
    REQUIRE(keeps_key(input.keys[i]) == kept);
    REQUIRE((input.flags[i] != 0) == kept);
  }
  CHECK(std::adjacent_find(input.keys.begin(), input.keys.end(), std::not_equal_to<K>()) != input.keys.end());
  CHECK(std::adjacent_find(input.values.begin(), input.values.end(), std::not_equal_to<Payload>()) !=
        input.values.end());
  const auto [low, high] = std::minmax_element(input.flags.begin(), input.flags.end());
  CHECK(*low == 0);
  CHECK(*high > 1);  // flags are any non-zero byte, not just 1
  CHECK(make_input<K>(n, 0.5, {}, true, 7).keys == input.keys);
  CHECK(make_input<K>(n, 0.5, {}, true, 8).keys != input.keys);
  CHECK(make_input<K>(n, 0.5, {}, false, 7).values.empty());
}

TEST_CASE("the reference keeps the same elements by predicate and by flag, in input order, with their values") {
  const SelectInput<std::int32_t> input = make_input<std::int32_t>(50000, 0.3, runs(13), true, 3);
  const Selection<std::int32_t> by_key = select_reference(input, false);
  const Selection<std::int32_t> by_flag = select_reference(input, true);
  CHECK(by_key.keys == by_flag.keys);
  CHECK(by_key.values == by_flag.values);
  std::size_t next = 0;
  for (std::size_t i = 0; i < input.keys.size(); ++i)
    if (input.flags[i] != 0) {
      REQUIRE(next < by_key.keys.size());
      CHECK(by_key.keys[next] == input.keys[i]);
      CHECK(by_key.values[next] == input.values[i]);
      ++next;
    }
  CHECK(next == by_key.keys.size());
}

TEST_CASE("the worked example: keep the negative keys of a short list, with their values") {
  SelectInput<std::int32_t> input;
  input.keys = {5, -3, 8, -1, -7, 0, 2, -9};
  input.flags = {0, 1, 0, 1, 1, 0, 0, 1};
  input.values = {10, 11, 12, 13, 14, 15, 16, 17};
  const Selection<std::int32_t> kept = select_reference(input, false);
  CHECK(kept.keys == std::vector<std::int32_t>{-3, -1, -7, -9});
  CHECK(kept.values == std::vector<Payload>{11, 13, 14, 17});
}

TEST_CASE("radix_sort sorts 32- and 64-bit words as std::sort does") {
  std::mt19937_64 random(5);
  for (int bits : {32, 64})
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{1000}, std::size_t{100003}}) {
      std::vector<std::uint64_t> words(n);
      for (std::uint64_t& word : words) word = bits == 32 ? random() >> 32 : random();
      if (n > 10) words[3] = words[7] = words[9];  // duplicates
      std::vector<std::uint64_t> want = words;
      std::sort(want.begin(), want.end());
      radix_sort(words, bits);
      CHECK(words == want);
    }
}

TEST_CASE("check_selection: exact for ordered rows, a multiset for the unordered ones, nothing past the count") {
  const std::int32_t poison_key = static_cast<std::int32_t>(0xCDCDCDCD);
  const Payload poison_value = static_cast<Payload>(0xCDCDCDCD);
  Selection<std::int32_t> reference;
  reference.keys = {-3, -1, -7, -9};
  reference.values = {11, 13, 14, 17};
  std::vector<std::int32_t> keys = {-3, -1, -7, -9, poison_key, poison_key};
  std::vector<Payload> values = {11, 13, 14, 17, poison_value, poison_value};

  CHECK(check_selection(keys, values, 4, reference, true, poison_key, poison_value).passed);
  CHECK(check_selection(keys, values, 4, reference, false, poison_key, poison_value).passed);

  SUBCASE("a wrong count fails") {
    const Check check = check_selection(keys, values, 3, reference, true, poison_key, poison_value);
    CHECK_FALSE(check.passed);
    CHECK(check.detail.find("kept count 3, want 4") != std::string::npos);
  }
  SUBCASE("a permutation passes unordered and fails ordered") {
    std::swap(keys[0], keys[2]);
    std::swap(values[0], values[2]);
    CHECK(check_selection(keys, values, 4, reference, false, poison_key, poison_value).passed);
    const Check ordered = check_selection(keys, values, 4, reference, true, poison_key, poison_value);
    CHECK_FALSE(ordered.passed);
    CHECK(ordered.detail.find("first at index 0") != std::string::npos);
  }
  SUBCASE("a key separated from its value fails both") {
    std::swap(values[0], values[1]);
    CHECK_FALSE(check_selection(keys, values, 4, reference, false, poison_key, poison_value).passed);
    CHECK_FALSE(check_selection(keys, values, 4, reference, true, poison_key, poison_value).passed);
  }
  SUBCASE("a duplicated element in place of another fails the multiset") {
    keys[1] = keys[0];
    values[1] = values[0];
    CHECK_FALSE(check_selection(keys, values, 4, reference, false, poison_key, poison_value).passed);
  }
  SUBCASE("a write past the kept count fails") {
    keys[5] = 0;
    const Check check = check_selection(keys, values, 4, reference, false, poison_key, poison_value);
    CHECK_FALSE(check.passed);
    CHECK(check.detail.find("output element 5 was written") != std::string::npos);
  }
  SUBCASE("an unwritten (still poisoned) element among the kept fails") {
    keys[3] = poison_key;
    values[3] = poison_value;
    CHECK_FALSE(check_selection(keys, values, 4, reference, true, poison_key, poison_value).passed);
    CHECK_FALSE(check_selection(keys, values, 4, reference, false, poison_key, poison_value).passed);
  }
}

TEST_CASE("check_selection compares float keys by their bits: a NaN poison never passes, -0 is not +0") {
  const float poison = std::numeric_limits<float>::quiet_NaN();
  Selection<float> reference;
  reference.keys = {-0.5f, -0.25f};
  CHECK(check_selection<float>({-0.5f, -0.25f, poison}, {}, 2, reference, true, poison, 0).passed);
  CHECK_FALSE(check_selection<float>({-0.5f, poison, poison}, {}, 2, reference, true, poison, 0).passed);
  CHECK_FALSE(check_selection<float>({-0.5f, poison, poison}, {}, 2, reference, false, poison, 0).passed);
  Selection<float> zero;
  zero.keys = {-0.0f};
  CHECK_FALSE(check_selection<float>({0.0f}, {}, 1, zero, true, poison, 0).passed);
}

TEST_CASE("--analyze counts each stage's atomics, passes and launches on the input") {
  Plan plan;
  const std::vector<SelectRow> stages = analyzed_stages();
  std::uint64_t kept = 0;
  SUBCASE("everything kept: one atomic per element, per warp and per tile, as each row's cost model says") {
    plan.selectivity = 1.0;
    const std::uint64_t n = 100000;
    const std::vector<StageCost> costs = stage_costs(plan, n, 1, stages, kept);
    const std::vector<SelectRow> rows = kernel_rows();
    REQUIRE(costs.size() == rows.size());
    CHECK(kept == n);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const SelectCost& model = rows[i].traits.cost;
      const StageCost& cost = costs[i];
      CAPTURE(rows[i].name);
      const std::uint64_t tile =
          static_cast<std::uint64_t>(rows[i].shape.threads) * static_cast<std::uint64_t>(rows[i].shape.items);
      const std::uint64_t tiles = tile == 0 ? 0 : (n + tile - 1) / tile;
      switch (model.counter_atomics) {
        case CounterAtomics::none:
          CHECK(cost.counter_atomics == 0);
          break;
        case CounterAtomics::per_kept_element:
          CHECK(cost.counter_atomics == n);
          break;
        case CounterAtomics::per_warp:
          CHECK(cost.counter_atomics == (n + 31) / 32);
          break;
        case CounterAtomics::per_tile:
          CHECK(cost.counter_atomics == tiles);
          break;
      }
      CHECK(cost.ticket_atomics == (model.ticket_per_tile ? tiles : 0));
      CHECK(cost.input_passes == model.input_passes);
      CHECK(cost.launches == model.launches);
      if (model.input_passes > 1) CHECK(cost.bytes > 8.0 * n + 4.0 * n);  // the second read of the keys
      if (model.input_passes == 1 && !model.ticket_per_tile && model.count_bytes_per_block == 0.0)
        CHECK(cost.bytes == doctest::Approx(8.0 * n));  // read n keys, write n
    }
  }
  SUBCASE("nothing kept: no atomic on the counter at all") {
    plan.selectivity = 0.0;
    const std::vector<StageCost> costs = stage_costs(plan, 5000, 1, stages, kept);
    CHECK(kept == 0);
    for (const StageCost& cost : costs) CHECK(cost.counter_atomics == 0);
  }
  SUBCASE("runs of 64: one warp in two has a kept element, at half selectivity") {
    plan.selectivity = 0.5;
    plan.pattern = runs(64);
    const std::uint64_t n = 1 << 20;
    const std::vector<StageCost> costs = stage_costs(plan, n, 1, stages, kept);
    CHECK(costs[first_counting(CounterAtomics::per_warp)].counter_atomics * 32 == kept);  // all kept or all dropped
  }
  SUBCASE("flags and a payload change the bytes") {
    plan.selectivity = 1.0;
    plan.by_flags = true;
    plan.payload = true;
    const std::vector<StageCost> costs = stage_costs(plan, 1000, 1, stages, kept);
    CHECK(costs[first_counting(CounterAtomics::per_kept_element)].bytes ==
          doctest::Approx(1000.0 * (4 + 4 + 1) + 1000.0 * (4 + 4)));
  }
  const std::string report = analyze(plan, 4096, 1, stages);
  CHECK(report.find("chapter 06 --analyze") != std::string::npos);
  CHECK(report.find("count-scan-scatter") != std::string::npos);
}

TEST_CASE("--analyze above 2^26 elements counts the first 2^26 and scales their shares to n") {
  Plan plan;
  const std::vector<SelectRow> stages = analyzed_stages();
  std::uint64_t exact = 0, scaled = 0;
  const std::vector<StageCost> at_cap = stage_costs(plan, kMaxCountedElements, 1, stages, exact);
  const std::vector<StageCost> doubled = stage_costs(plan, 2 * kMaxCountedElements, 1, stages, scaled);
  CHECK(scaled == 2 * exact);
  CHECK(doubled[1].counter_atomics == 2 * at_cap[1].counter_atomics);
  CHECK(doubled[5].ticket_atomics == (2 * kMaxCountedElements + 3071) / 3072);  // counted from n, not sampled
  std::uint64_t huge = 0;
  stage_costs(plan, std::uint64_t{1} << 40, 1, stages, huge);
  CHECK(static_cast<double>(huge) == doctest::Approx(0.5 * std::ldexp(1.0, 40)).epsilon(0.001));
  CHECK(analyze(plan, kMaxCountedElements, 1, stages).find("estimated") == std::string::npos);
  CHECK(analyze(plan, kMaxCountedElements + 1, 1, stages).find("estimated: counted on the first 2^26") !=
        std::string::npos);
}

TEST_CASE("--analyze: a warp's ballot gives each kept lane its rank among the voters") {
  Plan plan;
  plan.selectivity = 1.0;
  WarpBallot all = warp_ballot(plan, 1000, 1, 64);
  CHECK(all.ballot == 0xffffffffu);
  CHECK(all.voters == 32);
  for (int lane = 0; lane < 32; ++lane) CHECK(all.ranks[static_cast<std::size_t>(lane)] == lane);
  WarpBallot edge = warp_ballot(plan, 70, 1, 64);  // only lanes 0-5 hold an element
  CHECK(edge.ballot == 0x3fu);
  CHECK(edge.ranks[6] == -1);
  plan.selectivity = 0.5;
  const WarpBallot half = warp_ballot(plan, 1000, 7, 0);
  int rank = 0;
  for (int lane = 0; lane < 32; ++lane) {
    const bool kept = is_kept(7, static_cast<std::size_t>(lane), 0.5, plan.pattern);
    CHECK(((half.ballot >> lane) & 1u) == (kept ? 1u : 0u));
    CHECK(half.ranks[static_cast<std::size_t>(lane)] == (kept ? rank++ : -1));
  }
  CHECK(half.voters == rank);
}

TEST_CASE("--analyze: stage 3's strided tile and stage 7's sliced tile pack every kept element once, in order") {
  Plan plan;
  plan.selectivity = 0.3;
  const std::uint64_t n = 3 * 2048 + 100, seed = 5;
  const StridedPacking strided = strided_packing(plan, n, seed, 1, {256, 8});
  REQUIRE(strided.counts.size() == 8);
  REQUIRE(strided.counts[0].size() == 8);
  unsigned expected = 0;
  for (int step = 0; step < 8; ++step) {
    for (int warp = 0; warp < 8; ++warp) {  // TileRanks's order: (step, warp)
      const std::uint64_t first = 2048 + 256u * static_cast<unsigned>(step) + 32u * static_cast<unsigned>(warp);
      CHECK(strided.offsets[step][warp] == expected);
      CHECK(strided.counts[step][warp] == static_cast<unsigned>(warp_ballot(plan, n, seed, first).voters));
      expected += strided.counts[step][warp];
    }
  }
  CHECK(strided.total == expected);
  unsigned kept = 0;
  for (std::uint64_t i = 2048; i < 4096; ++i) kept += is_kept(seed, i, plan.selectivity, plan.pattern);
  CHECK(strided.total == kept);
  const SlicedPacking sliced = sliced_packing(plan, n, seed, 1, {64, 32});  // 2 warps of 1024: the same 2048
  CHECK(sliced.slice == 1024);
  REQUIRE(sliced.counts.size() == 2);
  CHECK(sliced.offsets == std::vector<unsigned>{0, sliced.counts[0]});
  CHECK(sliced.total == kept);
  const StridedPacking ragged = strided_packing(plan, n, seed, 3, {256, 8});  // 100 elements left
  unsigned last = 0;
  for (std::uint64_t i = 3 * 2048; i < n; ++i) last += is_kept(seed, i, plan.selectivity, plan.pattern);
  CHECK(ragged.total == last);
  CHECK(ragged.counts[1] == std::vector<unsigned>(8, 0u));
}

TEST_CASE("--analyze: the look-back example adds up to the kept elements before its tile") {
  Plan plan;
  const LaunchShape tuned{128, 40};
  SUBCASE("one window: the nearest inclusive prefix is 6 tiles back") {
    const LookbackExample example = lookback_example(plan, kDefaultN, 1, tuned);
    CHECK(example.tile == 40);
    CHECK(example.last_inclusive == 34);
    REQUIRE(example.windows.size() == 1);
    const LookbackExample::Window& window = example.windows[0];
    CHECK(window.tiles[0] == 39);
    CHECK(window.nearest_inclusive == 5);
    CHECK(window.flags[4] == CountFlag::aggregate);
    CHECK(window.flags[5] == CountFlag::inclusive);
    CHECK(example.exclusive_prefix == example.sequential);
    CHECK(example.own_count > 0);
  }
  SUBCASE("a window of counts only moves 32 tiles back") {
    plan.selectivity = 0.01;
    plan.pattern = runs(700);
    const LookbackExample example = lookback_example(plan, kDefaultN, 3, tuned, 38);
    CHECK(example.last_inclusive == 1);
    REQUIRE(example.windows.size() == 2);
    CHECK(example.windows[0].nearest_inclusive == -1);
    CHECK(example.windows[0].folded_lanes == 32);
    CHECK(example.windows[1].window_end == 8);
    CHECK(example.windows[1].nearest_inclusive == 6);
    CHECK(example.exclusive_prefix == example.sequential);
  }
  SUBCASE("few tiles: the last one looks back, tile 0 is always inclusive; a single tile has nothing to look at") {
    const LookbackExample three = lookback_example(plan, 2 * 5120 + 1, 1, tuned);
    CHECK(three.tile == 2);
    REQUIRE(three.windows.size() == 1);
    CHECK(three.windows[0].nearest_inclusive == 1);
    CHECK(three.exclusive_prefix == three.sequential);
    const LookbackExample one = lookback_example(plan, 5120, 1, tuned);
    CHECK(one.tile == 0);
    CHECK(one.windows.empty());
    CHECK(one.exclusive_prefix == 0);
  }
}

TEST_CASE("--analyze --format json: the table's numbers and every diagram's data") {
  Plan plan;
  const nlohmann::json document = nlohmann::json::parse(analyze_json(plan, 1 << 20, 1, analyzed_stages()));
  CHECK(document.at("analysis") == "compaction");
  CHECK(document.at("n") == 1 << 20);
  REQUIRE(document.at("stages").size() == kernel_rows().size());
  CHECK(document.at("sliced_tile").at("stage") == document.at("lookback").at("stage"));
  CHECK(document.at("warp").at("kept").size() == 32);
  CHECK(document.at("strided_tile").at("counts").size() == 8);
  CHECK(document.at("sliced_tile").at("slice") == 1280);
  CHECK(document.at("lookback").at("tile") == 40);
  CHECK(document.at("lookback").at("exclusive_prefix") == document.at("lookback").at("sequential"));
  CHECK(document.at("lookback").at("windows")[0].at("flags")[5] == "P");
  std::vector<SelectRow> without = analyzed_stages();  // no row that draws: no packing, no look-back
  without.erase(std::remove_if(without.begin(), without.end(),
                               [](const SelectRow& row) { return row.traits.diagram != Diagram::none; }),
                without.end());
  const nlohmann::json fewer = nlohmann::json::parse(analyze_json(plan, 4096, 1, without));
  CHECK(fewer.contains("warp"));
  CHECK_FALSE(fewer.contains("strided_tile"));
  CHECK_FALSE(fewer.contains("lookback"));
}

namespace {

/// The exit code main gives @p arguments before the GPU: 0 when they are good, 2 when refused.
int parse_like_main(const std::vector<std::string>& arguments) { return testing::exit_code_of(chapter(), arguments); }

}  // namespace

TEST_CASE("options: --flags picks the table in any spelling, and options that do nothing are refused") {
  CHECK(parse_like_main({"--flags", "--n", "100", "--stage", "cub::DeviceSelect::Flagged"}) == 0);
  CHECK(parse_like_main({"--n", "100", "--stage", "cub::DeviceSelect::If"}) == 0);
  CHECK(parse_like_main({"--n", "100", "--stage", "cub::DeviceSelect::Flagged"}) == 2);
  CHECK(parse_like_main({"--selectivity", "--flags"}) == 2);  // --flags is the value: refused
  CHECK(parse_like_main({"--first-poll-ns", "100", "--stage", "6"}) == 0);
  CHECK(parse_like_main({"--first-poll-ns", "100", "--stage", "1", "--stage", "tuned"}) == 0);
  CHECK(parse_like_main({"--speculative-load", "--stage", "7"}) == 0);
  CHECK(parse_like_main({"--analyze", "--n", "1000", "--seed", "2", "--flags", "--payload"}) == 0);
  CHECK(parse_like_main({"--analyze", "--format", "json"}) == 0);
  for (const std::vector<std::string>& bad :
       std::vector<std::vector<std::string>>{{"--first-poll-ns", "100", "--stage", "5"},
                                             {"--first-poll-ns", "100", "--stage", "lib"},
                                             {"--speculative-load", "--stage", "6"},
                                             {"--speculative-load", "--stage", "single-pass", "--stage", "cpu"},
                                             {"--analyze", "--type", "float32"},
                                             {"--analyze", "--first-poll-ns", "100"},
                                             {"--analyze", "--speculative-load"},
                                             {"--analyze", "--reps", "3"},
                                             {"--analyze", "--device", "0"},
                                             {"--analyze", "--compact"},
                                             {"--analyze", "--warm-cache"},
                                             {"--analyze", "--format", "csv"},
                                             {"--type", ""},
                                             {"--pattern", ""},
                                             {"--selectivity", ""}}) {
    CAPTURE(bad);
    CHECK(parse_like_main(bad) == 2);
  }
}

TEST_CASE("memory: what a run holds on the host, before anything is allocated") {
  Plan plan;  // 50 %, keys only: 5 bytes of input, 2 x 2 x 4 of reference, 4 downloaded, 3 x 8 sorted per kept
  CHECK(host_bytes(plan, 1000) == doctest::Approx(1000.0 * 5 + 500.0 * 16 + 1000.0 * 4 + 500.0 * 24));
  plan.payload = true;
  plan.selectivity = 1.0;
  CHECK(host_bytes(plan, 1000) == doctest::Approx(1000.0 * 9 + 1000.0 * 32 + 1000.0 * 8 + 1000.0 * 24));
}

TEST_CASE("the report's note on the order each row keeps is generated from the rows' traits") {
  // The table as it is today: the note reads as the hand-written one did.
  CHECK(order_note(analyzed_stages()) ==
        "stages 1-3 and 8 keep the elements in the order their atomics are served, checked as a multiset; "
        "stages 4-7 and the library keep the input order, checked exactly");
  std::vector<SelectRow> rows = analyzed_stages();
  for (SelectRow& row : rows) row.traits.keeps_input_order = row.number % 2 == 0;
  CHECK(order_note(rows).find("stages 1, 3, 5 and 7 keep the elements in the order") == 0);
}

TEST_CASE("a row matches the library exactly when it keeps the input order, variants included") {
  int unordered = 0;
  for (Form form : {Form::predicate, Form::flags}) {
    for (const SelectStage<std::int32_t>& stage : select_stages<std::int32_t>(form)) {
      CHECK(stage.matches_library == stage.traits.keeps_input_order);
      if (!stage.matches_library) ++unordered;
      for (const SelectStage<std::int32_t>& variant : stage.variants)
        CHECK(variant.matches_library == variant.traits.keeps_input_order);
    }
  }
  CHECK(unordered == 8);  // stages 1-3 and 8, in both forms
}
