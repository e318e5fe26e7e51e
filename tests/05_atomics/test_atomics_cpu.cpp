// CPU tests of chapter 05: the host/device lane arithmetic the kernels run (the talk's worked
// example with its exact ballots, peers from key arrays against the ballot loop, the sub-tree
// reduction's schedule with a non-commutative operation, the ticket's ranks), the inputs of
// every distribution, the checks and their tolerance, the options, --analyze's profile, its
// replays of the talk's ballot loop and 16-lane sub-tree and its JSON form, and the surface's report.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "algorithm/warp_aggregate.hpp"
#include "analysis.hpp"
#include "atomics.hpp"
#include "chapter.hpp"
#include "cli_checks.hpp"
#include "host/data.hpp"
#include "inputs.hpp"
#include "library_limit.hpp"
#include "plan.hpp"
#include "surface_report.hpp"

using namespace stepwise;
using namespace stepwise::atomics;

namespace {

/// 32 keys drawn from @p range values (the first @p lanes lanes; the rest 0).
std::vector<Key> random_warp(std::mt19937_64& rng, int range) {
  std::vector<Key> keys(kWarpLanes);
  std::uniform_int_distribution<Key> draw(0, range - 1);
  for (Key& key : keys) key = draw(rng);
  return keys;
}

std::uint32_t lanes_mask(int lanes) { return lanes == kWarpLanes ? 0xffffffffu : lanes_below(lanes); }

/// The int-add table as --analyze reads it: names, numbers and traits.
std::vector<HistogramRow> analyzed_rows() { return facts_of(histogram_stages<IntAdd>()); }

/// The exit code main gives @p arguments before the GPU: 0 when they are good, 2 when refused.
/// With @p plan, a good command line's plan (completed by the chapter's validate) is written there.
int parse(const std::vector<std::string>& arguments, Plan* plan = nullptr) {
  ParsedChapter<Plan> parsed(chapter());
  const int code = testing::parse_captured(parsed, arguments).code.value_or(0);
  if (code == 0 && plan != nullptr) *plan = parsed.plan();
  return code;
}

/// The keys of aligned group @p group (32 keys, fewer at the end of @p keys).
std::vector<Key> group_keys(const std::vector<Key>& keys, std::size_t group) {
  const std::size_t first = group * kWarpLanes;
  const std::size_t last = std::min(keys.size(), first + kWarpLanes);
  return std::vector<Key>(keys.begin() + static_cast<std::ptrdiff_t>(first),
                          keys.begin() + static_cast<std::ptrdiff_t>(last));
}

/// The shared-memory banks of 4-byte bins that @p keys fall in: their distinct keys mod 32.
std::size_t distinct_banks(const std::vector<Key>& keys) {
  std::set<Key> banks;
  for (Key key : keys) banks.insert(key % kWarpLanes);
  return banks.size();
}

/// The conflict degree of @p keys' distinct bins (4-byte bins): the most distinct bins in one bank.
std::size_t bank_conflict_degree(const std::vector<Key>& keys) {
  const std::set<Key> bins(keys.begin(), keys.end());
  std::vector<std::size_t> per_bank(kWarpLanes);
  for (Key key : bins) ++per_bank[static_cast<std::size_t>(key % kWarpLanes)];
  return *std::max_element(per_bank.begin(), per_bank.end());
}

/// The mean of distinct_banks over the full aligned groups of @p keys.
double mean_distinct_banks(const std::vector<Key>& keys) {
  const std::size_t groups = keys.size() / kWarpLanes;
  double total = 0.0;
  for (std::size_t g = 0; g < groups; ++g) total += static_cast<double>(distinct_banks(group_keys(keys, g)));
  return total / static_cast<double>(groups);
}

/// The expected distinct banks among @p d distinct bins drawn at random from @p bins (a multiple
/// of 32: bins / 32 in each bank): 32 (1 - P(a bank is missed)), P = C(bins - bins/32, d) / C(bins, d).
double expected_distinct_banks(int bins, int d) {
  const int per_bank = bins / kWarpLanes;
  double missed = 1.0;
  for (int i = 0; i < d; ++i) missed *= static_cast<double>(bins - per_bank - i) / static_cast<double>(bins - i);
  return kWarpLanes * (1.0 - missed);
}

/// runs:R's keys as make_keys placed them before runs:R drew random bins, written out again here:
/// what strided:R must reproduce bit for bit.
std::vector<Key> old_strided_keys(std::size_t n, int bin_count, std::uint64_t run, std::uint64_t seed) {
  std::vector<Key> keys(n);
  const auto bins = static_cast<std::uint64_t>(bin_count);
  const std::uint64_t stream = splitmix64(seed ^ 0x5157A7E5ull);
  const std::uint64_t per_group = std::max<std::uint64_t>(1, 32 / run);
  const std::uint64_t stride = std::max<std::uint64_t>(1, bins / per_group);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = i / run;
    const std::uint64_t first = splitmix64(stream + r / per_group) % bins;
    keys[i] = static_cast<Key>((first + (r % per_group) * stride) % bins);
  }
  return keys;
}

}  // namespace

TEST_CASE("the talk's worked example: ballots 0x91, 0x26, 0x48 (10010001, 00100110, 01001000 on the slides)") {
  Key keys[kWarpLanes] = {2, 3, 3, 1, 2, 3, 1, 2};
  std::uint32_t ballots[kWarpLanes] = {};
  std::uint32_t peers[kWarpLanes] = {};
  REQUIRE(ballot_loop(keys, lanes_mask(8), ballots, peers) == 3);
  CHECK(ballots[0] == 0x91u);
  CHECK(ballots[1] == 0x26u);
  CHECK(ballots[2] == 0x48u);
  CHECK(slide_bits(ballots[0], 8) == "10010001");
  CHECK(slide_bits(ballots[1], 8) == "00100110");
  CHECK(slide_bits(ballots[2], 8) == "01001000");
  const std::uint32_t want[8] = {0x91, 0x26, 0x26, 0x48, 0x91, 0x26, 0x48, 0x91};
  for (int lane = 0; lane < 8; ++lane) {
    CAPTURE(lane);
    CHECK(peers[lane] == want[lane]);
    CHECK(peers_of(keys, lanes_mask(8), lane) == want[lane]);
  }
  CHECK(talk_keys() == std::vector<Key>(keys, keys + 8));
  // The sub-tree: 10..80 on lanes 0..7; leaders 0 (key 2), 1 (key 3), 3 (key 1).
  int values[kWarpLanes] = {};
  for (int lane = 0; lane < 8; ++lane) values[lane] = 10 * (lane + 1);
  CHECK(subtree_reduce_lanes(peers, values, [](int a, int b) { return a + b; }) == 2);
  CHECK(values[0] == 10 + 50 + 80);
  CHECK(values[1] == 20 + 30 + 60);
  CHECK(values[3] == 40 + 70);
}

TEST_CASE("the bit helpers match their intrinsics' definitions") {
  CHECK(popcount32(0) == 0);
  CHECK(popcount32(0xffffffffu) == 32);
  CHECK(popcount32(0x91) == 3);
  CHECK(find_first_set(0) == 0);
  CHECK(find_first_set(1) == 1);
  CHECK(find_first_set(0x80000000u) == 32);
  CHECK(find_first_set(0x48) == 4);
  CHECK(lanes_below(0) == 0);
  CHECK(lanes_below(31) == 0x7fffffffu);
  CHECK(lanes_above(0) == 0xfffffffeu);
  CHECK(lanes_above(31) == 0);
  CHECK(leader_of(0x26) == 1);
  CHECK(ticket_rank(0x91, 0) == 0);
  CHECK(ticket_rank(0x91, 4) == 1);
  CHECK(ticket_rank(0x91, 7) == 2);
  CHECK(subtree_rounds(1) == 0);
  CHECK(subtree_rounds(2) == 1);
  CHECK(subtree_rounds(3) == 2);
  CHECK(subtree_rounds(32) == 5);
}

TEST_CASE("the ticket: slots are a permutation of 0..popc - 1 in lane order") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const auto mask = static_cast<std::uint32_t>(rng());
    int expected = 0;
    for (int lane = 0; lane < kWarpLanes; ++lane)
      if ((mask & lane_bit(lane)) != 0) CHECK(ticket_rank(mask, lane) == expected++);
    CHECK(expected == popcount32(mask));
  }
}

TEST_CASE("peers: the ballot loop and match-any agree, for any keys and any partial warp") {
  std::mt19937_64 rng(11);
  for (int range : {1, 2, 3, 5, 8, 32, 1000})
    for (int lanes : {1, 2, 7, 31, 32}) {
      const std::vector<Key> keys = random_warp(rng, range);
      std::uint32_t loop_peers[kWarpLanes] = {};
      std::uint32_t ballots[kWarpLanes] = {};
      const int iterations = ballot_loop(keys.data(), lanes_mask(lanes), ballots, loop_peers);
      std::set<Key> distinct(keys.begin(), keys.begin() + lanes);
      CAPTURE(range);
      CAPTURE(lanes);
      CHECK(iterations == static_cast<int>(distinct.size()));
      std::uint32_t covered = 0;
      for (int i = 0; i < iterations; ++i) {
        CHECK((covered & ballots[i]) == 0);  // every lane in exactly one ballot
        covered |= ballots[i];
      }
      CHECK(covered == lanes_mask(lanes));
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        if (lane < lanes)
          CHECK(loop_peers[lane] == peers_of(keys.data(), lanes_mask(lanes), lane));
        else
          CHECK(loop_peers[lane] == 0);
      }
    }
}

TEST_CASE("peers: all equal is one group, all distinct is 32") {
  std::vector<Key> equal(kWarpLanes, 9);
  std::vector<Key> distinct(kWarpLanes);
  for (int lane = 0; lane < kWarpLanes; ++lane) distinct[static_cast<std::size_t>(lane)] = 100 - lane;
  std::uint32_t peers[kWarpLanes];
  CHECK(ballot_loop(equal.data(), 0xffffffffu, nullptr, peers) == 1);
  for (std::uint32_t mask : peers) CHECK(mask == 0xffffffffu);
  CHECK(ballot_loop(distinct.data(), 0xffffffffu, nullptr, peers) == 32);
  for (int lane = 0; lane < kWarpLanes; ++lane) CHECK(peers[lane] == lane_bit(lane));
  int values[kWarpLanes];
  for (int lane = 0; lane < kWarpLanes; ++lane) values[lane] = lane + 1;
  CHECK(subtree_reduce_lanes(peers, values, [](int a, int b) { return a + b; }) == 0);  // nothing to add
  for (int lane = 0; lane < kWarpLanes; ++lane) CHECK(values[lane] == lane + 1);
}

TEST_CASE("the sub-tree: each leader gets its group in lane order, in ceil(log2(largest group)) rounds") {
  // String concatenation does not commute: the leader's result shows the order of the tree.
  std::mt19937_64 rng(13);
  for (int range : {1, 2, 3, 4, 7, 16, 33})
    for (int lanes : {1, 5, 31, 32}) {
      const std::vector<Key> keys = random_warp(rng, range);
      std::uint32_t peers[kWarpLanes] = {};
      ballot_loop(keys.data(), lanes_mask(lanes), nullptr, peers);
      std::string values[kWarpLanes];
      for (int lane = 0; lane < kWarpLanes; ++lane) values[lane] = std::string(1, static_cast<char>('A' + lane));
      const int rounds =
          subtree_reduce_lanes(peers, values, [](const std::string& a, const std::string& b) { return a + b; });
      int largest = 0;
      CAPTURE(range);
      CAPTURE(lanes);
      for (int lane = 0; lane < lanes; ++lane) {
        largest = std::max(largest, popcount32(peers[lane]));
        if (leader_of(peers[lane]) != lane) continue;
        std::string want;
        for (int other = 0; other < kWarpLanes; ++other)
          if ((peers[lane] & lane_bit(other)) != 0) want += static_cast<char>('A' + other);
        CHECK(values[lane] == want);
      }
      CHECK(rounds == subtree_rounds(largest));
    }
}

TEST_CASE("the sub-tree lane state: the talk's four-lane walk") {
  // One group on lanes 0, 2, 5, 6: round 1 adds 2->0, 5->2, 6->5; lanes of odd rank (2, 6) are done.
  const std::uint32_t peers = lane_bit(0) | lane_bit(2) | lane_bit(5) | lane_bit(6);
  SubtreeLane lanes[4] = {SubtreeLane::start(peers, 0), SubtreeLane::start(peers, 2), SubtreeLane::start(peers, 5),
                          SubtreeLane::start(peers, 6)};
  CHECK(lanes[0].source() == 2);
  CHECK(lanes[1].source() == 5);
  CHECK(lanes[2].source() == 6);
  CHECK(lanes[3].source() == -1);
  std::uint32_t done = 0;
  const int lane_of[4] = {0, 2, 5, 6};
  for (int i = 0; i < 4; ++i)
    if (lanes[i].done()) done |= lane_bit(lane_of[i]);
  CHECK(done == (lane_bit(2) | lane_bit(6)));
  for (SubtreeLane& lane : lanes) lane.advance(done);
  CHECK(lanes[0].source() == 5);  // round 2: lane 0 adds lane 5's (v5 + v6)
  CHECK(lanes[2].source() == -1);
}

TEST_CASE("keys: every distribution stays in range, is reproducible and is not constant where it should vary") {
  const std::uint64_t seed = 20261121;
  for (const char* text : {"uniform", "runs:1", "runs:3", "runs:8", "runs:32", "runs:100", "strided:1", "strided:3",
                           "strided:8", "strided:32", "strided:100", "zipf:0.5", "zipf:1.1", "all-equal"})
    for (int bins : {1, 7, 256, 1000, 65536}) {
      CAPTURE(text);
      CAPTURE(bins);
      const Distribution distribution = parse_distribution(text);
      const std::vector<Key> keys = make_keys(10007, bins, distribution, seed);
      CHECK(keys == make_keys(10007, bins, distribution, seed));
      CHECK(std::all_of(keys.begin(), keys.end(), [&](Key key) { return key >= 0 && key < bins; }));
      const bool constant = std::all_of(keys.begin(), keys.end(), [&](Key key) { return key == keys[0]; });
      if (bins >= 256 && distribution.kind != Distribution::Kind::all_equal) CHECK_FALSE(constant);
      if (distribution.kind == Distribution::Kind::all_equal) CHECK(constant);
    }
}

TEST_CASE("keys: runs of 32 / d give exactly d distinct keys in every aligned warp") {
  for (int d : surface_keys_per_warp())
    for (int bins : {32, 100, 65536}) {
      const std::vector<Key> keys = make_keys(32 * 500, bins, keys_per_warp_distribution(d), 99);
      const WarpProfile profile = profile_warps(keys);
      CAPTURE(d);
      CAPTURE(bins);
      CHECK(profile.distinct[static_cast<std::size_t>(d)] == 500);
      CHECK(profile.groups == 500u * static_cast<unsigned>(d));
    }
  CHECK(keys_per_warp_distribution(4) == parse_distribution("runs:8"));
}

TEST_CASE("keys: runs:R and strided:R, min(32 / R, K) distinct keys per aligned group of 32, runs of R equal") {
  const std::size_t n = 32 * 300 + 13;  // a last group of 13 keys
  for (const char* kind : {"runs:", "strided:"})
    for (int run : {1, 2, 4, 8, 16, 32})
      for (int bins : {1, 7, 32, 256, 1024, 65536})
        for (std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{20261121}, std::uint64_t{0xDEADBEEFCAFEull}}) {
          const Distribution distribution = parse_distribution(kind + std::to_string(run));
          const std::vector<Key> keys = make_keys(n, bins, distribution, seed);
          CAPTURE(kind);
          CAPTURE(run);
          CAPTURE(bins);
          CAPTURE(seed);
          REQUIRE(keys.size() == n);
          CHECK(std::all_of(keys.begin(), keys.end(), [&](Key key) { return key >= 0 && key < bins; }));
          std::size_t broken_runs = 0;
          for (std::size_t i = 0; i < n; ++i)
            if (keys[i] != keys[i - i % static_cast<std::size_t>(run)]) ++broken_runs;
          CHECK(broken_runs == 0);
          const int d = 32 / run;
          std::size_t wrong_groups = 0;
          for (std::size_t g = 0; g * kWarpLanes < n; ++g) {
            const std::vector<Key> group = group_keys(keys, g);
            const int runs_here =
                static_cast<int>((group.size() + static_cast<std::size_t>(run) - 1) / static_cast<std::size_t>(run));
            const std::set<Key> distinct(group.begin(), group.end());
            if (static_cast<int>(distinct.size()) != std::min({d, bins, runs_here})) ++wrong_groups;
          }
          CHECK(wrong_groups == 0);
        }
}

TEST_CASE("keys: runs:R draws each group's bins at random, so its banks are the birthday count, not one") {
  // 4000 warps of 32 keys. Random bins: the distinct banks (key mod 32, 4-byte bins) of a warp
  // average the expectation for d distinct bins drawn from K (20.6 for 32 of 1024, within 0.3;
  // the standard error of the mean is about 0.02); the strided pattern is far from it (1 bank at
  // 1024 bins, 1 to 4 at 256: the next test counts them).
  const std::size_t n = 32 * 4000;
  for (int bins : {256, 1024, 65536})
    for (int run : {1, 2, 4}) {
      const int d = 32 / run;
      CAPTURE(bins);
      CAPTURE(d);
      const std::vector<Key> keys = make_keys(n, bins, parse_distribution("runs:" + std::to_string(run)), 17);
      const double want = expected_distinct_banks(bins, d);
      const double got = mean_distinct_banks(keys);
      CAPTURE(got);
      CAPTURE(want);
      CHECK(std::abs(got - want) < 0.3);
      const std::vector<Key> strided = make_keys(n, bins, parse_distribution("strided:" + std::to_string(run)), 17);
      CHECK(std::abs(mean_distinct_banks(strided) - want) > 3.0);
    }
  // The expectations themselves: 32 (1 - C(992, 32) / C(1024, 32)) = 20.6, near 32 (1 - (31/32)^32) = 20.4.
  CHECK(expected_distinct_banks(1024, 32) == doctest::Approx(20.598).epsilon(1e-4));
  CHECK(expected_distinct_banks(256, 32) == doctest::Approx(21.179).epsilon(1e-4));
  // At 32 bins, 32 keys per warp are all 32 bins in either pattern: one per bank.
  CHECK(mean_distinct_banks(make_keys(n, 32, parse_distribution("runs:1"), 17)) == 32.0);
  CHECK(mean_distinct_banks(make_keys(n, 32, parse_distribution("strided:1"), 17)) == 32.0);
}

TEST_CASE("keys: strided:R is the bank-conflict pattern, runs:R's old placement bit for bit") {
  const std::size_t n = 32 * 1000 + 7;
  for (int run : {1, 2, 3, 4, 8, 16, 32, 100})
    for (int bins : {1, 7, 32, 256, 1000, 1024, 65536}) {
      CAPTURE(run);
      CAPTURE(bins);
      CHECK(make_keys(n, bins, parse_distribution("strided:" + std::to_string(run)), 20261121) ==
            old_strided_keys(n, bins, static_cast<std::uint64_t>(run), 20261121));
    }
  // Per warp (d = 32 / R keys): at 1024 bins the keys are 1024 / d apart, a multiple of 32, so all
  // d in one bank (d-way conflicts); at 256 bins 256 / d apart: 1 bank up to d = 8, 2 banks at
  // d = 16 (16 apart), 4 at d = 32 (8 apart), so the conflict degree is min(d, 8); at 32 bins d
  // banks, no conflict.
  struct Case {
    int bins, d;
    std::size_t banks, degree;
  };
  const Case cases[] = {{1024, 1, 1, 1}, {1024, 4, 1, 4}, {1024, 8, 1, 8},   {1024, 16, 1, 16}, {1024, 32, 1, 32},
                        {256, 2, 1, 2},  {256, 4, 1, 4},  {256, 8, 1, 8},    {256, 16, 2, 8},   {256, 32, 4, 8},
                        {32, 4, 4, 1},   {32, 32, 32, 1}, {65536, 32, 1, 32}};
  for (const Case& c : cases) {
    CAPTURE(c.bins);
    CAPTURE(c.d);
    const std::vector<Key> keys =
        make_keys(32 * 500, c.bins, parse_distribution("strided:" + std::to_string(32 / c.d)), 5);
    std::size_t wrong = 0;
    for (std::size_t g = 0; g < 500; ++g) {
      const std::vector<Key> group = group_keys(keys, g);
      if (distinct_banks(group) != c.banks || bank_conflict_degree(group) != c.degree) ++wrong;
    }
    CHECK(wrong == 0);
  }
  // The random placement at the same sizes: far from one bank (the birthday count above), and
  // its worst conflict over a warp of 32 keys in 1024 bins is a few keys, not 32.
  const std::vector<Key> random = make_keys(32 * 500, 1024, parse_distribution("runs:1"), 5);
  std::size_t worst = 0;
  for (std::size_t g = 0; g < 500; ++g) worst = std::max(worst, bank_conflict_degree(group_keys(random, g)));
  CHECK(worst >= 3);
  CHECK(worst <= 8);
}

TEST_CASE("keys: runs:R's bins are uniform over the bins and over the slots of a group") {
  // 7 bins, runs:8 (4 runs per warp): each group holds 4 distinct bins of 7 in random order; over
  // 20000 groups each bin appears in about 4/7 of them, and in slot 0 about 1/7 of the time.
  const std::size_t groups = 20000;
  const std::vector<Key> keys = make_keys(32 * groups, 7, parse_distribution("runs:8"), 3);
  std::vector<double> in_group(7), in_slot0(7);
  for (std::size_t g = 0; g < groups; ++g) {
    const std::vector<Key> group = group_keys(keys, g);
    for (Key key : std::set<Key>(group.begin(), group.end())) in_group[static_cast<std::size_t>(key)] += 1.0;
    in_slot0[static_cast<std::size_t>(group[0])] += 1.0;
  }
  for (int b = 0; b < 7; ++b) {
    CAPTURE(b);
    CHECK(std::abs(in_group[static_cast<std::size_t>(b)] / groups - 4.0 / 7.0) < 0.02);
    CHECK(std::abs(in_slot0[static_cast<std::size_t>(b)] / groups - 1.0 / 7.0) < 0.015);
  }
  // The prefix of a longer input is the shorter input (--analyze profiles a prefix).
  const std::vector<Key> longer = make_keys(32 * groups + 77, 7, parse_distribution("runs:8"), 3);
  CHECK(std::equal(keys.begin(), keys.end(), longer.begin()));
}

TEST_CASE("keys: zipf puts the most keys in bin 0") {
  const std::vector<Key> keys = make_keys(100000, 1000, parse_distribution("zipf:1.1"), 5);
  std::vector<int> counts(1000);
  for (Key key : keys) ++counts[static_cast<std::size_t>(key)];
  CHECK(std::max_element(counts.begin(), counts.end()) == counts.begin());
  CHECK(counts[0] > counts[10]);
}

TEST_CASE("values: from -1 to 1, both signs, none for a count") {
  const std::vector<float> floats = make_values<FloatAdd>(10000, 3);
  const std::vector<double> doubles = make_values<DoubleCas>(10000, 3);
  CHECK(make_values<IntAdd>(10000, 3).empty());
  for (const auto& values : {std::vector<double>(floats.begin(), floats.end()), doubles}) {
    CHECK(std::all_of(values.begin(), values.end(), [](double v) { return v >= -1.0 && v < 1.0; }));
    CHECK(std::any_of(values.begin(), values.end(), [](double v) { return v < 0.0; }));
    CHECK(std::any_of(values.begin(), values.end(), [](double v) { return v > 0.0; }));
  }
}

TEST_CASE("distributions: parsing and printing") {
  CHECK(parse_distribution("runs:8").run == 8);
  CHECK(parse_distribution("zipf:1.25").exponent == doctest::Approx(1.25));
  CHECK(to_string(parse_distribution("zipf:1.25")) == "zipf:1.25");
  CHECK(to_string(parse_distribution("runs:16")) == "runs:16");
  CHECK(parse_distribution("strided:4").kind == Distribution::Kind::strided);
  CHECK(parse_distribution("strided:4").run == 4);
  CHECK(to_string(parse_distribution("strided:1")) == "strided:1");
  CHECK_FALSE(parse_distribution("strided:4") == parse_distribution("runs:4"));
  CHECK(to_string(parse_distribution("all-equal")) == "all-equal");
  for (const char* bad :
       {"", "runs", "runs:", "runs:0", "runs:-1", "runs:1.5", "zipf:", "zipf:0", "zipf:-1", "zipf:11", "zipf:1e3",
        "zipf:x", "Uniform", "all_equal", "strided", "strided:", "strided:0", "strided:2.5", "stride:4"})
    CHECK_THROWS_AS(parse_distribution(bad), std::invalid_argument);
}

TEST_CASE("checks: counts exactly, floating point within c u times the sum of magnitudes") {
  const std::vector<Key> keys = {0, 2, 2, 2, 4};
  const std::vector<float> values = {0.5f, 0.25f, -1.0f, 0.125f, 0.75f};
  const BinReference counts = reference_bins(keys, std::vector<std::int32_t>(), 5);
  CHECK(check_bins<IntAdd>({1, 0, 3, 0, 1}, counts).passed);
  CHECK_FALSE(check_bins<IntAdd>({1, 0, 3, 1, 1}, counts).passed);
  const BinReference sums = reference_bins(keys, values, 5);
  CHECK(sums.sum[2] == doctest::Approx(-0.625));
  CHECK(sums.magnitude[2] == doctest::Approx(1.375));
  CHECK(sums.count[2] == 3);
  CHECK(check_bins<FloatAdd>({0.5f, 0.0f, -0.625f, 0.0f, 0.75f}, sums).passed);
  const float allowed = static_cast<float>(bin_tolerance(0x1p-24, 3, 1.375));
  CHECK(check_bins<FloatAdd>({0.5f, 0.0f, -0.625f + 0.5f * allowed, 0.0f, 0.75f}, sums).passed);
  CHECK_FALSE(check_bins<FloatAdd>({0.5f, 0.0f, -0.625f + 1e-4f, 0.0f, 0.75f}, sums).passed);
  CHECK_FALSE(check_bins<FloatAdd>({0.5f, 1e-30f, -0.625f, 0.0f, 0.75f}, sums).passed);  // an empty bin is exactly 0
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(check_bins<FloatAdd>({nan, 0.0f, -0.625f, 0.0f, 0.75f}, sums).passed);
  CHECK(unit_roundoff<DoubleCas>() == 0x1p-53);
  CHECK(unit_roundoff<IntAdd>() == 0.0);
}

TEST_CASE("checks: the ticket's output in any order, the counter, nothing past the count") {
  const std::vector<std::int32_t> values = {5, -3, 7, 0, 9, -1};
  const std::vector<std::int32_t> want = kept_sorted(values);
  CHECK(want == std::vector<std::int32_t>{5, 7, 9});
  const std::int32_t poison = -99;
  CHECK(check_ticket({9, 5, 7, poison, poison, poison}, 3, want, poison).passed);
  CHECK_FALSE(check_ticket({9, 5, 7, poison, poison, poison}, 2, want, poison).passed);
  CHECK_FALSE(check_ticket({9, 5, 5, poison, poison, poison}, 3, want, poison).passed);
  CHECK_FALSE(check_ticket({9, 5, 7, 7, poison, poison}, 3, want, poison).passed);
  const std::vector<std::int32_t> ticket_input = make_ticket_values(10000, 1);
  const auto kept = static_cast<double>(kept_sorted(ticket_input).size());
  CHECK(kept > 4000);
  CHECK(kept < 6000);
}

TEST_CASE("options: plans, and what each problem and mode refuses") {
  Plan plan;
  CHECK(parse({"--bins", "1000", "--distribution", "runs:8", "--op", "double-cas"}, &plan) == 0);
  CHECK(plan.problem == ProblemKind::histogram);
  CHECK(plan.bins == 1000);
  CHECK(plan.distribution == parse_distribution("runs:8"));
  CHECK(plan.op == OpKind::double_cas);
  CHECK(parse({"--surface"}, &plan) == 0);
  CHECK(plan.surface);
  CHECK(plan.surface_ops == all_ops());
  CHECK(parse({"--surface", "--op", "float-add"}, &plan) == 0);
  CHECK(plan.surface_ops == std::vector<OpKind>{OpKind::float_add});
  CHECK(parse({"--problem", "ticket"}, &plan) == 0);
  CHECK(plan.problem == ProblemKind::ticket);
  for (const std::vector<std::string>& bad :
       std::vector<std::vector<std::string>>{{"--problem", "ticket", "--bins", "3"},
                                             {"--problem", "ticket", "--op", "int-add"},
                                             {"--problem=ticket", "--surface"},
                                             {"--surface", "--bins", "31"},
                                             {"--surface", "--distribution", "runs:2"},
                                             {"--surface", "--format", "csv"},
                                             {"--analyze", "--surface"},
                                             {"--bins", "0"},
                                             {"--distribution", "runs:0"},
                                             {"--op", "max"}}) {
    CAPTURE(bad.front());
    CHECK(parse(bad) == 2);
  }
}

TEST_CASE("options: --bins as --n writes counts, and --stage lib only where the table has the library row") {
  Plan plan;
  CHECK(parse({"--bins", "16Mi"}, &plan) == 0);
  CHECK(plan.bins == kMaxBins);
  CHECK(parse({"--bins", "2^24", "--n", "1M"}, &plan) == 0);
  CHECK(plan.bins == kMaxBins);
  CHECK(plan.sizes == "--n 1000000 --bins 16777216");
  CHECK(parse({}, &plan) == 0);
  CHECK(plan.sizes == "the default --n 2^24");
  CHECK(parse({"--stage", "lib"}, &plan) == 0);
  CHECK(parse({"--surface", "--stage", "lib"}, &plan) == 0);  // int-add is among the three
  for (const std::vector<std::string>& bad :
       std::vector<std::vector<std::string>>{{"--op", "float-add", "--stage", "lib"},
                                             {"--op", "double-cas", "--stage", "cub::DeviceHistogram"},
                                             {"--surface", "--op", "float-add", "--stage", "library"},
                                             {"--problem", "ticket", "--stage", "lib"},
                                             {"--bins", "2^24+1"},
                                             {"--bins", "0x10"},
                                             {"--bins", ""},
                                             {"--distribution", ""},
                                             {"--op", ""},
                                             {"--problem", ""}}) {
    CAPTURE(bad);
    CHECK(parse(bad) == 2);
  }
}

TEST_CASE("options: --analyze refuses the common options it does not read, and --op") {
  CHECK(parse({"--analyze", "--n", "1000", "--seed", "7", "--bins", "64", "--distribution", "zipf:1.1"}) == 0);
  for (const char* format : {"table", "json"}) {
    CHECK(parse({"--analyze", "--format", format}) == 0);
  }
  for (const std::vector<std::string>& idle : std::vector<std::vector<std::string>>{{"--reps", "3"},
                                                                                    {"--warmup", "1"},
                                                                                    {"--device", "0"},
                                                                                    {"--compact"},
                                                                                    {"--warm-cache"},
                                                                                    {"--flush", "write"},
                                                                                    {"--format", "csv"},
                                                                                    {"--format", "markdown"},
                                                                                    {"--output", "x.json"},
                                                                                    {"--stage", "1"},
                                                                                    {"--sweep"},
                                                                                    {"--op", "float-add"}}) {
    std::vector<std::string> arguments = {"--analyze"};
    arguments.insert(arguments.end(), idle.begin(), idle.end());
    CAPTURE(idle.front());
    CHECK(parse(arguments) == 2);
  }
}

TEST_CASE("memory: what a run holds on the host and the device, before anything is allocated") {
  Plan histogram;
  histogram.bins = 256;
  CHECK(host_bytes(histogram, 1000) == doctest::Approx(4.0 * 1000 + 72.0 * 256));
  CHECK(device_bytes(histogram, 1000) == doctest::Approx(4.0 * 1000 + 4.0 * 256));
  histogram.op = OpKind::double_cas;
  CHECK(host_bytes(histogram, 1000) == doctest::Approx(12.0 * 1000 + 72.0 * 256));
  CHECK(device_bytes(histogram, 1000) == doctest::Approx(12.0 * 1000 + 8.0 * 256));
  Plan surface;
  surface.surface = true;
  surface.surface_ops = all_ops();  // double's values are the widest
  CHECK(device_bytes(surface, 1000) == doctest::Approx(12.0 * 1000 + 8.0 * 256));
  Plan ticket;
  ticket.problem = ProblemKind::ticket;
  CHECK(host_bytes(ticket, 1000) == doctest::Approx(16.0 * 1000));
  CHECK(device_bytes(ticket, 1000) == doctest::Approx(8.0 * 1000));
  // --analyze holds the keys it profiles, 2^26 at most, whatever n.
  CHECK(analysis_host_bytes(Plan{}, std::uint64_t{1} << 40) == analysis_host_bytes(Plan{}, kMaxAnalyzedKeys));
}

TEST_CASE("cub::DeviceHistogram's limit: (blocks - 1) x bins within 2^31 - 1, blocks = min(tiles of 6144, resident)") {
  constexpr int kBins16Mi = 1 << 24;
  constexpr int kH100Sms = 132, kBlocksPerSm = 3;  // CUB's sweep kernel at 54 registers x 384 threads
  CHECK(kCubHistogramTileKeys == 6144);
  CHECK(cub_histogram_blocks(0, 396) == 0);
  CHECK(cub_histogram_blocks(1, 396) == 1);
  CHECK(cub_histogram_blocks(6144, 396) == 1);
  CHECK(cub_histogram_blocks(6145, 396) == 2);
  CHECK(cub_histogram_blocks(std::uint64_t{1} << 24, 396) == 396);  // the default n fills the GPU
  // 16Mi bins: 128 blocks (127 x 2^24 = 2^31 - 2^24) fit, 129 (128 x 2^24 = 2^31) do not.
  CHECK(cub_histogram_offsets_fit(128, kBins16Mi));
  CHECK_FALSE(cub_histogram_offsets_fit(129, kBins16Mi));
  CHECK(cub_histogram_max_keys(kBins16Mi) == 128 * 6144);
  CHECK(cub_histogram_fits(786432, kBins16Mi, kH100Sms, kBlocksPerSm));
  CHECK_FALSE(cub_histogram_fits(786433, kBins16Mi, kH100Sms, kBlocksPerSm));
  CHECK_FALSE(cub_histogram_fits(1000000, kBins16Mi, kH100Sms, kBlocksPerSm));               // the run
  CHECK_FALSE(cub_histogram_fits(std::uint64_t{1} << 24, 1 << 23, kH100Sms, kBlocksPerSm));  // 396 x 8Mi
  // n = 1M: 163 blocks; 162 x 13256071 = 2147483502 fits, 162 x 13256072 = 2147483664 does not.
  CHECK(cub_histogram_blocks(1000000, 396) == 163);
  CHECK(cub_histogram_fits(1000000, 13256071, kH100Sms, kBlocksPerSm));
  CHECK_FALSE(cub_histogram_fits(1000000, 13256072, kH100Sms, kBlocksPerSm));
  CHECK(cub_histogram_fits(1000000, 1 << 23, kH100Sms, kBlocksPerSm));  // 162 x 2^23
  // The default n on an H100: at most 2147483647 / 395 = 5436667 bins.
  CHECK(cub_histogram_fits(std::uint64_t{1} << 24, 5436667, kH100Sms, kBlocksPerSm));
  CHECK_FALSE(cub_histogram_fits(std::uint64_t{1} << 24, 5436668, kH100Sms, kBlocksPerSm));
  // A small GPU never reaches it: 48 blocks x 2^24 bins stay below 2^31, whatever n.
  CHECK(cub_histogram_fits(std::uint64_t{1} << 34, kBins16Mi, 16, kBlocksPerSm));
  // Up to 256 bins CUB privatizes in shared memory; the offsets are small anyway.
  CHECK(cub_histogram_fits(std::uint64_t{1} << 34, 256, kH100Sms, kBlocksPerSm));
  CHECK(cub_histogram_offsets_fit(0, kBins16Mi));
  CHECK(cub_histogram_offsets_fit(1, kBins16Mi));
}

TEST_CASE("cub::DeviceHistogram's blocks read back from its temporary storage, and the note") {
  // CUB asks for blocks x K x 4 bytes of privatized bins, each allocation rounded up to 256 bytes,
  // plus its tile queue (256) and 255 bytes to align the blob.
  const auto temp_bytes = [](std::uint64_t blocks, std::uint64_t bins) {
    const auto round_up = [](std::uint64_t bytes) { return (bytes + 255) / 256 * 256; };
    return static_cast<std::size_t>(round_up(blocks * bins * 4) + 256 + 255);
  };
  for (std::uint64_t blocks : {1, 2, 128, 129, 163, 396})
    for (int bins : {192, 257, 1000, 65536, 13256071, 1 << 24}) {
      CAPTURE(blocks);
      CAPTURE(bins);
      CHECK(cub_histogram_blocks_of_temp(temp_bytes(blocks, static_cast<std::uint64_t>(bins)), bins) == blocks);
    }
  // Below 192 bins the alignment may add blocks, never enough to reach the limit.
  CHECK(cub_histogram_offsets_fit(cub_histogram_blocks_of_temp(temp_bytes(396, 1), 1), 1));
  const std::string note = cub_histogram_limit_note(1000000, 1 << 24, 163);
  CAPTURE(note);
  CHECK(note.find("cub::DeviceHistogram left out") == 0);
  CHECK(note.find("163 blocks") != std::string::npos);
  CHECK(note.find("2^31 - 1") != std::string::npos);
  CHECK(note.find("786432 keys") != std::string::npos);
}

TEST_CASE("--analyze: the profile's counts and stage 6's replay") {
  const std::vector<Key> equal(100, 4);
  WarpProfile profile = profile_warps(equal);
  CHECK(profile.tiles == 4);
  CHECK(profile.distinct[1] == 4);  // 32, 32, 32 and a partial tile of 4
  CHECK(profile.groups == 4);
  CHECK(profile.subtree_rounds == 5 + 5 + 5 + 2);
  CHECK(profile.adaptive_atomics == 4);
  std::vector<Key> distinct(32 * 20);
  for (std::size_t i = 0; i < distinct.size(); ++i) distinct[i] = static_cast<Key>(i);
  profile = profile_warps(distinct, 1);  // one warp takes every tile: match, skip 8, match, skip 8, match, skip 1
  CHECK(profile.groups == distinct.size());
  CHECK(profile.adaptive_skipped == 17);
  CHECK(profile.adaptive_atomics == distinct.size());
  CHECK(profile.run_atomics == distinct.size());  // every key its own run
}

TEST_CASE("--analyze: stage 7's runs inside each thread's 8 keys and the warp's last runs") {
  // All equal: one atomic per warp of 256 keys (the last chunk partial).
  CHECK(profile_warps(std::vector<Key>(1000, 4)).run_atomics == 4);
  // Runs of 8 aligned with the threads: no run ends inside a thread; 32 distinct last runs a warp.
  std::vector<Key> runs8(512);
  for (std::size_t i = 0; i < runs8.size(); ++i) runs8[i] = static_cast<Key>(i / 8);
  CHECK(profile_warps(runs8).run_atomics == 64);
  // Runs of 4: one run ends inside each thread, and its last runs are 32 distinct keys.
  std::vector<Key> runs4(256);
  for (std::size_t i = 0; i < runs4.size(); ++i) runs4[i] = static_cast<Key>(i / 4);
  CHECK(profile_warps(runs4).run_atomics == 32 + 32);
  // Runs of 16: threads 2t and 2t + 1 share their key; 16 distinct last runs a warp, no inner end.
  std::vector<Key> runs16(256);
  for (std::size_t i = 0; i < runs16.size(); ++i) runs16[i] = static_cast<Key>(i / 16);
  CHECK(profile_warps(runs16).run_atomics == 16);
  // n = 13, keys 0 1 0 1 ...: thread 0's 8 keys end 7 runs inside and leave the last run (key 1)
  // to the warp; n cuts thread 1 short after 5 keys, so all 5 of its runs end inside it.
  std::vector<Key> alternating(13);
  for (std::size_t i = 0; i < alternating.size(); ++i) alternating[i] = static_cast<Key>(i % 2);
  CHECK(profile_warps(alternating).run_atomics == 7 + 5 + 1);
  // n = 12, all equal: thread 1 (4 keys) flushes its run itself; thread 0's goes to the warp.
  CHECK(profile_warps(std::vector<Key>(12, 3)).run_atomics == 2);
}

TEST_CASE("--analyze: the text") {
  const std::string text = analyze(Plan{}, 1000, 1, analyzed_rows());
  CHECK(text.find("= 0x91 = 10010001") != std::string::npos);
  CHECK(text.find("atomics per element") != std::string::npos);
  CHECK(text.find("7  thread-runs") != std::string::npos);
}

TEST_CASE("--analyze: the ballot loop replayed, iteration by iteration, as the talk's slides 9-15 draw it") {
  const BallotReplay replay = replay_ballots(talk_keys());
  REQUIRE(replay.iterations.size() == 3);
  CHECK(replay.iterations[0].leader == 0);
  CHECK(replay.iterations[0].key == 2);
  CHECK(replay.iterations[0].unassigned == 0xffu);
  CHECK(replay.iterations[0].ballot == 0x91u);
  CHECK(replay.iterations[1].leader == 1);
  CHECK(replay.iterations[1].unassigned == 0x6eu);
  CHECK(replay.iterations[1].ballot == 0x26u);
  CHECK(replay.iterations[2].leader == 3);
  CHECK(replay.iterations[2].key == 1);
  CHECK(replay.iterations[2].ballot == 0x48u);
  CHECK(replay.peers == std::vector<std::uint32_t>{0x91, 0x26, 0x26, 0x48, 0x91, 0x26, 0x48, 0x91});
  CHECK_THROWS_AS(replay_ballots({}), std::invalid_argument);
  CHECK_THROWS_AS(replay_ballots(std::vector<Key>(33, 1)), std::invalid_argument);
}

TEST_CASE("--analyze: the talk's 16-lane sub-tree, with the values of its slides 19 and 20") {
  const SubtreeReplay replay = replay_subtree(subtree_example_keys(), subtree_example_values());
  // The peer masks of slide 19: lanes 0 4 7 10 12 13, lanes 1 2 5 8 14, lanes 3 6 9 11 15.
  CHECK(replay.peers[0] == 0x3491u);
  CHECK(replay.peers[1] == 0x4126u);
  CHECK(replay.peers[3] == 0x8a48u);
  CHECK(replay.ranks == std::vector<int>{0, 0, 1, 0, 1, 2, 1, 2, 3, 2, 3, 3, 4, 5, 4, 4});
  REQUIRE(replay.rounds.size() == 3);  // ceil(log2(6))
  // Slide 20, "value after iteration 1", for the lanes whose sums are read on.
  const std::vector<std::int64_t>& first = replay.rounds[0].values;
  CHECK(first[0] == 11);
  CHECK(first[1] == 10);
  CHECK(first[3] == 7);
  CHECK(first[5] == 14);
  CHECK(first[7] == 5);
  CHECK(first[9] == 14);
  CHECK(first[12] == 15);
  CHECK(first[14] == 4);
  CHECK(first[15] == 7);
  CHECK(replay.rounds[0].taken == 0x2d54u);  // the odd ranks: lanes 2 4 6 8 10 11 13
  const std::vector<std::int64_t>& last = replay.rounds.back().values;
  CHECK(last[0] == 9 + 2 + 4 + 1 + 7 + 8);
  CHECK(last[1] == 8 + 2 + 7 + 7 + 4);
  CHECK(last[3] == 6 + 1 + 6 + 8 + 7);
  // Only the adds whose sums are read on are 'used': round 1's lane 4 += lane 7 is not.
  for (const SubtreeAdd& add : replay.rounds[0].adds)
    if (add.lane == 4) CHECK_FALSE(add.used);
  std::size_t used = 0;
  for (const SubtreeRound& round : replay.rounds)
    used += static_cast<std::size_t>(
        std::count_if(round.adds.begin(), round.adds.end(), [](const SubtreeAdd& add) { return add.used; }));
  CHECK(used == 16 - 3);  // every lane but the three leaders is added exactly once
  CHECK_THROWS_AS(replay_subtree(talk_keys(), {1, 2}), std::invalid_argument);
}

TEST_CASE("--analyze --format json: the document tools/plot draws the peers and sub-tree diagrams from") {
  Plan plan;
  plan.bins = 1024;
  plan.distribution = parse_distribution("strided:1");
  const nlohmann::json document = nlohmann::json::parse(analyze_json(plan, 1000, 7, analyzed_rows()));
  CHECK(document["analysis"] == "atomics-peers");
  CHECK(document["ballot_example"]["iterations"][1]["ballot_bits"] == "00100110");
  CHECK(document["ballot_example"]["peers"][2] == 0x26);
  CHECK(document["subtree_small"]["leaders"][0]["sum"] == 140);
  const nlohmann::json& wide = document["subtree_example"];
  CHECK(wide["lanes"] == 16);
  CHECK(wide["rounds"].size() == 3);
  CHECK(wide["leaders"].size() == 3);
  CHECK(wide["leaders"][2]["lane"] == 3);
  CHECK(wide["leaders"][2]["sum"] == 28);
  const nlohmann::json& keys = document["keys"];
  CHECK(keys["distribution"] == "strided:1");
  CHECK(keys["tiles"] == 32);
  // strided:1 over 1024 bins: a tile's 32 keys are 1024 / 32 = 32 bins apart, all in one bank.
  REQUIRE(keys["first_tile"].size() == 32);
  const int first = keys["first_tile"][0];
  for (int lane = 0; lane < 32; ++lane) CHECK(keys["first_tile"][lane] == (first + 32 * lane) % 1024);
  CHECK(keys["stages"][0]["atomics_per_element"] == 1.0);
  CHECK(keys["stages"][6]["name"] == "thread-runs");
  // runs:1: the first tile's 32 keys are 32 distinct random bins, in more than one bank.
  plan.distribution = parse_distribution("runs:1");
  const nlohmann::json random = nlohmann::json::parse(analyze_json(plan, 1000, 7, analyzed_rows()))["keys"];
  CHECK(random["distribution"] == "runs:1");
  const std::vector<Key> tile = random["first_tile"].get<std::vector<Key>>();
  REQUIRE(tile.size() == 32);
  CHECK(std::set<Key>(tile.begin(), tile.end()).size() == 32);
  CHECK(distinct_banks(tile) > 1);
}

TEST_CASE("--analyze: above 2^26 keys it profiles the first 2^26 and says so") {
  CHECK(analyze(Plan{}, kMaxAnalyzedKeys, 1, analyzed_rows()).find("profiled on the first") == std::string::npos);
  const std::string text = analyze(Plan{}, kMaxAnalyzedKeys + 1, 1, analyzed_rows());
  CHECK(text.find("2^26+1 keys") != std::string::npos);
  CHECK(text.find("profiled on the first 2^26") != std::string::npos);
  CHECK(text.find(std::to_string(kMaxAnalyzedKeys / 32) + " warp tiles") != std::string::npos);
}

TEST_CASE("the surface's report: speedups over stage 1 of the same cell, as text, markdown and JSON") {
  Surface surface;
  surface.device = "GPU";
  surface.sm = "sm_90";
  surface.n = 1024;
  surface.bins = 32;
  surface.flush = "read";
  surface.command = "chapter_05_atomics --surface";
  const auto point = [](const char* op, int keys, int number, const char* stage, double ms) {
    SurfacePoint p;
    p.op = op;
    p.keys_per_warp = keys;
    p.number = number;
    p.stage = stage;
    if (ms > 0) p.time = TimingStats{ms, ms, ms, 1};
    return p;
  };
  surface.points = {point("int-add", 1, 1, "naive", 4.0),   point("int-add", 1, 4, "subtree", 0.5),
                    point("int-add", 32, 1, "naive", 1.0),  point("int-add", 32, 4, "subtree", 2.0),
                    point("float-add", 1, 1, "naive", 3.0), point("float-add", 1, 4, "subtree", -1.0)};
  surface.points.back().check_detail = "boom";
  CHECK(*speedup_over_naive(surface, surface.points[1]) == doctest::Approx(8.0));
  CHECK(*speedup_over_naive(surface, surface.points[3]) == doctest::Approx(0.5));
  CHECK_FALSE(speedup_over_naive(surface, surface.points[5]).has_value());
  const std::string table = render_surface(surface, Format::table);
  CHECK(table.find("8.00x") != std::string::npos);
  CHECK(table.find("0.50x") != std::string::npos);
  CHECK(table.find("FAIL float-add, 1 keys/warp, 4 subtree: boom") != std::string::npos);
  CHECK(render_surface(surface, Format::markdown).find("| 1 | 4.0000 | 1.00x | 8.00x |") != std::string::npos);
  const std::string json = render_surface(surface, Format::json);
  CHECK(json.find("\"kind\": \"surface\"") != std::string::npos);
  CHECK(json.find("\"speedup\": 8.0") != std::string::npos);
  CHECK_THROWS_AS(render_surface(surface, Format::csv), std::invalid_argument);
}
