// CPU tests of chapter 08: the talk's two worked examples (the outer-join table of 26 rows and
// the inner-join walk-through with its LB, UB, COUNTS, SCAN, LBS and RANK columns), the
// reference join on the edge cases (empty sides, no matches, everything matching everything),
// the GPU stages' decomposition (bounds, counts, scan, load-balancing search, row writing) run on
// the CPU against the reference for every join kind, --analyze's text and JSON, the inputs, the
// option parsers, and the table's variant rows.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "chapter.hpp"
#include "cli_checks.hpp"
#include "inputs.hpp"
#include "join.hpp"
#include "options.hpp"

using namespace stepwise;
using namespace stepwise::join;

namespace {

/// Keys from the talk's letters: A = 1, B = 2, ...
std::vector<std::int32_t> letters(const std::string& keys) {
  std::vector<std::int32_t> out;
  for (char c : keys) out.push_back(c - 'A' + 1);
  return out;
}

JoinInput input_of(const std::string& a, const std::string& b) { return JoinInput{letters(a), letters(b)}; }

using Rows = std::vector<std::pair<std::int32_t, std::int32_t>>;

Rows rows_of(const JoinPairs& pairs) {
  Rows rows;
  for (std::size_t r = 0; r < pairs.size(); ++r) rows.emplace_back(pairs.a_index[r], pairs.b_index[r]);
  return rows;
}

/// The talk's outer-join table (A index, B index) of A = A0 A1 B0 E0 E1 E2 E3 F0 F1 G0 H0 H1 J0
/// J1 M0 M1 and B = A0 A1 B0 B1 B2 C0 C1 F0 G0 G1 H0 I0 L0 L1 (the digits number equal keys;
/// analysis.hpp's talk_outer_input), in its order: 13 inner rows and 8 left rows in A's order,
/// then 5 right rows.
const Rows kOuterTable = {{0, 0},   {0, 1},   {1, 0},   {1, 1},  {2, 2},  {2, 3},   {2, 4},   {3, -1},  {4, -1},
                          {5, -1},  {6, -1},  {7, 7},   {8, 7},  {9, 8},  {9, 9},   {10, 10}, {11, 10}, {12, -1},
                          {13, -1}, {14, -1}, {15, -1}, {-1, 5}, {-1, 6}, {-1, 11}, {-1, 12}, {-1, 13}};

/// A brute-force join: every pair compared, then the talk's order.
JoinPairs brute_force(const JoinInput& input, JoinKind kind) {
  JoinPairs pairs;
  std::vector<bool> b_matched(input.b.size(), false);
  for (std::size_t i = 0; i < input.a.size(); ++i) {
    bool matched = false;
    for (std::size_t j = 0; j < input.b.size(); ++j) {
      if (input.a[i] != input.b[j]) continue;
      matched = true;
      b_matched[j] = true;
      pairs.a_index.push_back(static_cast<std::int32_t>(i));
      pairs.b_index.push_back(static_cast<std::int32_t>(j));
    }
    if (!matched && keeps_unmatched_a(kind)) {
      pairs.a_index.push_back(static_cast<std::int32_t>(i));
      pairs.b_index.push_back(-1);
    }
  }
  for (std::size_t j = 0; j < input.b.size(); ++j) {
    if (b_matched[j] || !keeps_unmatched_b(kind)) continue;
    pairs.a_index.push_back(-1);
    pairs.b_index.push_back(static_cast<std::int32_t>(j));
  }
  return pairs;
}

const JoinKind kKinds[] = {JoinKind::inner, JoinKind::left, JoinKind::right, JoinKind::outer};

}  // namespace

TEST_CASE("the talk's outer join: 26 rows, 13 inner, 8 left, 5 right, in the talk's order") {
  const JoinInput input = talk_outer_input();
  const Rows outer = rows_of(join_reference(input, JoinKind::outer));
  CHECK(outer == kOuterTable);
  std::size_t inner = 0, left = 0, right = 0;
  for (const auto& [a, b] : outer) {
    inner += a >= 0 && b >= 0;
    left += b < 0;
    right += a < 0;
  }
  CHECK(inner == 13);
  CHECK(left == 8);
  CHECK(right == 5);
  // The other kinds are the table without the rows they drop, in the same order.
  for (JoinKind kind : kKinds) {
    CAPTURE(to_string(kind));
    Rows want;
    for (const auto& row : kOuterTable)
      if ((row.second >= 0 || keeps_unmatched_a(kind)) && (row.first >= 0 || keeps_unmatched_b(kind)))
        want.push_back(row);
    CHECK(rows_of(join_reference(input, kind)) == want);
    CHECK(join_row_count(input, kind) == want.size());
    CHECK(rows_of(pairs_of(input, join_columns(input, kind))) == want);
  }
}

TEST_CASE("the talk's inner-join walk-through: LB, UB, COUNTS, SCAN, LBS, RANK and the pairs") {
  const JoinInput input = input_of("AABDFFFFG", "AAABCEEFF");
  const JoinColumns columns = join_columns(input, JoinKind::inner);
  CHECK(columns.lower == std::vector<std::int32_t>{0, 0, 3, 5, 7, 7, 7, 7, 9});
  CHECK(columns.upper == std::vector<std::int32_t>{3, 3, 4, 5, 9, 9, 9, 9, 9});
  // Objects: A's 9 rows, then B's 9 rows (which emit nothing in an inner join).
  const std::vector<std::int32_t> a_counts(columns.counts.begin(), columns.counts.begin() + 9);
  CHECK(a_counts == std::vector<std::int32_t>{3, 3, 1, 0, 2, 2, 2, 2, 0});
  CHECK(std::all_of(columns.counts.begin() + 9, columns.counts.end(), [](std::int32_t c) { return c == 0; }));
  const std::vector<std::int32_t> scan(columns.offsets.begin(), columns.offsets.begin() + 10);
  CHECK(scan == std::vector<std::int32_t>{0, 3, 6, 7, 7, 9, 11, 13, 15, 15});
  CHECK(columns.offsets.back() == 15);
  CHECK(columns.objects == std::vector<std::int32_t>{0, 0, 0, 1, 1, 1, 2, 4, 4, 5, 5, 6, 6, 7, 7});
  CHECK(columns.ranks == std::vector<std::int32_t>{0, 1, 2, 0, 1, 2, 0, 0, 1, 0, 1, 0, 1, 0, 1});
  // SCAN[LBS] and LB[LBS] + RANK, the slide's last columns: the B index of every row.
  std::vector<std::int32_t> scan_at_lbs, b_rows;
  for (std::size_t r = 0; r < columns.objects.size(); ++r) {
    scan_at_lbs.push_back(columns.offsets[columns.objects[r]]);
    b_rows.push_back(columns.lower[columns.objects[r]] + columns.ranks[r]);
  }
  CHECK(scan_at_lbs == std::vector<std::int32_t>{0, 0, 0, 3, 3, 3, 6, 7, 7, 9, 9, 11, 11, 13, 13});
  CHECK(b_rows == std::vector<std::int32_t>{0, 1, 2, 0, 1, 2, 3, 7, 8, 7, 8, 7, 8, 7, 8});
  const JoinPairs pairs = join_reference(input, JoinKind::inner);
  CHECK(pairs.a_index == columns.objects);
  CHECK(pairs.b_index == b_rows);
  // The slide says "8 INPUTS + 15 OUTPUTS. Launch threads for 23 items": the 15 outputs merged
  // with SCAN[1..8]. The kernels merge all 9 offsets, SCAN[0..8] (A row 0 starts at SCAN[0] = 0):
  // 24 items.
  CHECK(input.a.size() - 1 + pairs.size() == 23);
  CHECK(input.a.size() + pairs.size() == 24);
}

TEST_CASE("--analyze: the walk-through, the expansion's tiles and the outer join, as text and as JSON") {
  // The analysis's inputs are the talk's (keys as character codes, in the same order as letters()).
  const JoinInput inner = talk_inner_input();
  const JoinColumns columns = join_columns(inner, JoinKind::inner);
  CHECK(columns.lower == join_columns(input_of("AABDFFFFG", "AAABCEEFF"), JoinKind::inner).lower);
  CHECK(rows_of(join_reference(talk_outer_input(), JoinKind::outer)) == kOuterTable);

  // The expansion's tiles: every tile takes the same number of steps, rows and A rows together,
  // and the cuts are consecutive.
  const std::vector<std::int32_t> offsets = {0, 3, 6, 7, 7, 9, 11, 13, 15};
  const std::vector<ExpansionTile> tiles = expansion_tiles(offsets, 15, 6);
  REQUIRE(tiles.size() == 4);
  int rows = 0, objects = 0;
  for (const ExpansionTile& tile : tiles) {
    CHECK(tile.rows_begin == rows);
    CHECK(tile.objects_begin == objects);
    CHECK(tile.rows_end - tile.rows_begin + tile.objects_end - tile.objects_begin == 6);
    rows = tile.rows_end;
    objects = tile.objects_end;
  }
  CHECK(rows == 15);
  CHECK(objects == 9);
  CHECK(tiles[1].rows_begin == 4);
  CHECK(tiles[1].objects_end == 5);  // D (row 3) and the first F (row 4) start at row 7, in tile 1
  CHECK_THROWS_AS(expansion_tiles(offsets, 15, 0), std::invalid_argument);

  const std::string text = analysis(Format::table);
  CHECK(text == analysis_text());
  for (const char* line : {"LB             0  0  3  5  7  7  7  7  9", "SCAN           0  3  6  7  7  9 11 13 15",
                           "LBS            0  0  0  1  1  1  2  4  4  5  5  6  6  7  7",
                           "tile 1: output rows [4, 7), A rows [2, 5)", "13 inner rows, 8 left rows, 5 right rows"})
    CHECK_MESSAGE(text.find(line) != std::string::npos, line);

  const nlohmann::json document = nlohmann::json::parse(analysis(Format::json));
  CHECK(document["analysis"] == "join");
  const nlohmann::json& walk = document["inner_join"];
  CHECK(walk["counts"] == std::vector<int>{3, 3, 1, 0, 2, 2, 2, 2, 0});
  CHECK(walk["scan"] == std::vector<int>{0, 3, 6, 7, 7, 9, 11, 13, 15, 15});
  CHECK(walk["b_row"] == std::vector<int>{0, 1, 2, 0, 1, 2, 3, 7, 8, 7, 8, 7, 8, 7, 8});
  const nlohmann::json& lbs = document["load_balance"];
  CHECK(lbs["offsets"] == offsets);
  CHECK(lbs["objects"] == columns.objects);
  CHECK(lbs["slide_items"] == 23);
  REQUIRE(lbs["steps"].size() == 24);
  int row = 0, started = 0;
  for (const auto& step : lbs["steps"]) {
    if (step.contains("starts")) {
      CHECK(step["starts"] == started++);
    } else {
      CHECK(step["item"] == row);
      CHECK(step["object"] == columns.objects[static_cast<std::size_t>(row)]);
      ++row;
    }
  }
  CHECK(lbs["tiles"].size() == tiles.size());
  CHECK(lbs["tiles"][2]["items_end"] == tiles[2].rows_end);
  const nlohmann::json& outer = document["outer_join"];
  REQUIRE(outer["rows"].size() == kOuterTable.size());
  CHECK(outer["rows"][7]["join"] == "left");
  CHECK(outer["rows"][25]["b"] == 13);
  CHECK_THROWS_AS(analysis(Format::csv), UsageError);
}

TEST_CASE("the reference on the edges: empty sides, no matches, everything matching everything") {
  const std::vector<std::int32_t> none;
  for (JoinKind kind : kKinds) {
    CAPTURE(to_string(kind));
    CHECK(join_reference(JoinInput{none, none}, kind).size() == 0);
    const JoinInput only_a{{1, 2, 2}, none};
    CHECK(join_reference(only_a, kind).size() == (keeps_unmatched_a(kind) ? 3u : 0u));
    const JoinInput only_b{none, {5, 6}};
    CHECK(rows_of(join_reference(only_b, kind)) == (keeps_unmatched_b(kind) ? Rows{{-1, 0}, {-1, 1}} : Rows{}));
    const JoinInput disjoint{{1, 3, 5}, {2, 4, 6, 8}};
    CHECK(join_reference(disjoint, kind).size() ==
          (keeps_unmatched_a(kind) ? 3u : 0u) + (keeps_unmatched_b(kind) ? 4u : 0u));
    const JoinInput same{std::vector<std::int32_t>(300, -7), std::vector<std::int32_t>(400, -7)};
    const JoinPairs all = join_reference(same, kind);
    REQUIRE(all.size() == 300u * 400u);
    CHECK(all.a_index[400] == 1);
    CHECK(all.b_index[401] == 1);
    CHECK(join_row_count(same, kind) == 120000u);
  }
}

TEST_CASE("the stages' decomposition equals the reference and a brute-force join, every kind") {
  for (double duplication : {1.0, 3.5, 40.0}) {
    for (std::size_t a_rows : {0u, 1u, 37u, 1000u}) {
      const std::size_t b_rows = 777;
      const JoinInput input = make_input(a_rows, b_rows, duplication, 20261124 + a_rows);
      for (JoinKind kind : kKinds) {
        CAPTURE(duplication);
        CAPTURE(a_rows);
        CAPTURE(to_string(kind));
        const JoinPairs reference = join_reference(input, kind);
        CHECK(rows_of(reference) == rows_of(brute_force(input, kind)));
        CHECK(join_row_count(input, kind) == reference.size());
        CHECK(rows_of(pairs_of(input, join_columns(input, kind))) == rows_of(reference));
      }
    }
  }
}

TEST_CASE("a join past 2^31 - 1 rows is counted in 64 bits and refused") {
  // 50,000 x 50,000 equal keys: 2.5 x 10^9 rows.
  const JoinInput huge{std::vector<std::int32_t>(50000, 3), std::vector<std::int32_t>(50000, 3)};
  CHECK(join_row_count(huge, JoinKind::inner) == 2500000000u);
  CHECK_THROWS_AS(join_reference(huge, JoinKind::inner), std::invalid_argument);
}

TEST_CASE("inputs: sorted, sized, reproducible, duplicated as asked") {
  const JoinInput input = make_input(100000, 50000, 4.0, 7);
  CHECK(input.a.size() == 100000);
  CHECK(input.b.size() == 50000);
  CHECK(std::is_sorted(input.a.begin(), input.a.end()));
  CHECK(std::is_sorted(input.b.begin(), input.b.end()));
  CHECK(make_input(100000, 50000, 4.0, 7).a == input.a);
  CHECK(make_input(100000, 50000, 4.0, 8).a != input.a);
  // 12,500 keys: B holds each about 4 times, A about 8 times; keys reach both signs.
  std::map<std::int32_t, int> b_keys;
  for (std::int32_t key : input.b) ++b_keys[key];
  CHECK(b_keys.size() > 12000);
  CHECK(b_keys.size() <= 12500);
  CHECK(input.b.front() < 0);
  CHECK(input.b.back() > 0);
  // Each A row matches about 4 B rows: the inner join has about 4 x 100,000 rows.
  const double rows = static_cast<double>(join_row_count(input, JoinKind::inner));
  CHECK(rows > 3.8e5);
  CHECK(rows < 4.2e5);
  CHECK_THROWS_AS(make_input(10, 10, 0.5, 1), std::invalid_argument);
}

TEST_CASE("option parsers") {
  CHECK(parse_join("outer") == JoinKind::outer);
  CHECK(parse_join("left") == JoinKind::left);
  CHECK_THROWS_AS(parse_join("full"), std::invalid_argument);
  CHECK_THROWS_AS(parse_join(""), std::invalid_argument);
  CHECK(parse_duplication("1") == 1.0);
  CHECK(parse_duplication("2.5") == 2.5);
  CHECK(parse_duplication("010") == 10.0);
  CHECK(parse_duplication("1000000000") == 1e9);
  // Decimal only, as every number of the command line: no hexadecimal, sign, exponent or space.
  for (const char* bad : {"0.5", "0", "-3", "abc", "", "4x", "inf", "nan", "1e10", "0x10", " 5", "5 ", "+5", "1.", ".5",
                          "1e3", "1.2.3", "1000000001", "0x1p3"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_duplication(bad), std::invalid_argument);
  }
}

namespace {

/// The plan of @p arguments as the chapter's main parses it (testing::plan_of).
Plan plan_of(const std::vector<std::string>& arguments) { return testing::plan_of(chapter(), arguments); }

/// The one line the chapter's parser prints when it refuses @p arguments (testing::refusal_of).
std::string refusal_of(const std::vector<std::string>& arguments) { return testing::refusal_of(chapter(), arguments); }

}  // namespace

TEST_CASE("the plan: sizes, and refusals that name the options typed") {
  const Plan defaults = plan_of({});
  CHECK(defaults.a_rows == kDefaultRows);
  CHECK(defaults.b_rows == kDefaultRows);
  CHECK(defaults.size_options == "the default sizes (2^24 x 2^24 rows)");
  const Plan uneven = plan_of({"--n", "4099", "--nb", "70001", "--join", "outer", "--dup", "16"});
  CHECK(uneven.a_rows == 4099);
  CHECK(uneven.b_rows == 70001);
  CHECK(uneven.kind == JoinKind::outer);
  CHECK(uneven.size_options == "--n 4099 --nb 70001 --dup 16 --join outer");
  CHECK(plan_of({"--n", "2^30-1", "--nb", "2^30"}).b_rows == (std::uint64_t{1} << 30));

  const std::string b_alone = refusal_of({"--nb", "2^31"});
  CHECK(b_alone.rfind("--nb 2^31: B has 2^31 rows", 0) == 0);
  const std::string n_alone = refusal_of({"--n", "1Gi"});
  CHECK(n_alone.rfind("--n 1Gi (--nb defaults to --n): A and B hold 2^31 rows together", 0) == 0);
  const std::string both = refusal_of({"--n", "2^30", "--nb", "2^30"});
  CHECK(both.rfind("--n 2^30 --nb 2^30: A and B hold 2^31 rows", 0) == 0);
  const std::string b_with_default = refusal_of({"--nb", "2^31-1"});
  CHECK(b_with_default.rfind("the default --n 2^24 and --nb 2^31-1: A and B hold", 0) == 0);
  // A join far above 2^31 - 1 rows is refused from the sizes, before any input is drawn.
  CHECK(refusal_of({"--n", "2^20", "--dup", "1e9"}).rfind("--dup: '1e9' is not", 0) == 0);  // not decimal
  const std::string dense = refusal_of({"--n", "2^20", "--dup", "1000000000"});
  CHECK(dense.rfind("--n 2^20 --dup 1000000000: the inner join would have about 2^40 rows", 0) == 0);
  CHECK(refusal_of({"--dup", "0x10"}).rfind("--dup: '0x10' is not", 0) == 0);
  CHECK(refusal_of({"--dup", " 5"}).rfind("--dup: ' 5' is not", 0) == 0);
  CHECK(refusal_of({"--nb", ""}).rfind("--nb: '' is not", 0) == 0);
  CHECK(refusal_of({"--n", "2^30-1", "--nb", "2^30"}).empty());
}

TEST_CASE("the expected join and the memory it needs, against a drawn input") {
  for (JoinKind kind : {JoinKind::inner, JoinKind::left, JoinKind::right, JoinKind::outer})
    for (double dup : {1.0, 4.0, 64.0}) {
      CAPTURE(to_string(kind));
      CAPTURE(dup);
      Plan plan;
      plan.kind = kind;
      plan.a_rows = 100000;
      plan.b_rows = 60000;
      plan.duplication = dup;
      const JoinInput input = make_input(plan.a_rows, plan.b_rows, plan.duplication, 7);
      const double rows = static_cast<double>(join_row_count(input, kind));
      CHECK(expected_rows(plan) == doctest::Approx(rows).epsilon(0.02));
      const double keys = 4.0 * 160000;
      CHECK(host_bytes_needed(plan, rows) == doctest::Approx(keys + 4.0 * std::round(60000 / dup) + 24.0 * rows));
      CHECK(device_bytes_needed(plan, rows) == doctest::Approx(keys + 12.0 * rows + 20.0 * 100000 + 9.0 * 60000));
    }
}

TEST_CASE("stage 4's variant rows: one per change, each its own launcher at the stage's tile or stage 3's") {
  const std::vector<JoinStage>& stages = join_stages();
  const auto tuned = std::find_if(stages.begin(), stages.end(), [](const JoinStage& s) { return s.name == "tuned"; });
  REQUIRE(tuned != stages.end());
  const auto one_launch =
      std::find_if(stages.begin(), stages.end(), [](const JoinStage& s) { return s.name == "one-launch"; });
  REQUIRE(one_launch != stages.end());
  std::vector<std::string> changes;
  for (const JoinStage& variant : tuned->variants) {
    CAPTURE(variant.variant);
    changes.push_back(variant.variant);
    CHECK(variant.number == tuned->number);
    CHECK(variant.sweep.empty());
    CHECK(variant.variants.empty());
    const bool own_launcher = variant.launch != nullptr && variant.launch != tuned->launch;
    CHECK(own_launcher);
    const LaunchShape expected = variant.variant == "tile 256x11" ? one_launch->shape : tuned->shape;
    CHECK(variant.shape.threads == expected.threads);
    CHECK(variant.shape.items == expected.items);
  }
  CHECK(changes == std::vector<std::string>{"one merge", "fused scan", "B scatter", "tile 256x11"});
  CHECK(!(tuned->shape == one_launch->shape));  // the tile row undoes a change
  for (const JoinStage& stage : stages)
    if (&stage != &*tuned) CHECK(stage.variants.empty());
  // with_variants: each variant right after its stage, the table's stages in their order.
  const std::vector<JoinStage> rows = with_variants(stages);
  REQUIRE(rows.size() == stages.size() + tuned->variants.size());
  const auto at = static_cast<std::size_t>(tuned - stages.begin());
  for (std::size_t i = 0; i < tuned->variants.size(); ++i) CHECK(rows[at + 1 + i].variant == changes[i]);
}
