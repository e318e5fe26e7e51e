// CPU tests of chapter 10: the segment distributions, the values, the references and their
// tolerance, the registry of --problem, the options as the chapter's own spec parses them (no GPU
// is opened: every command line here stops at a refusal, --list, --check-options or --analyze),
// and the work model --analyze prints. Rows are picked by their traits, never by number or name.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "algorithm/merge_path.hpp"
#include "chapter.hpp"
#include "cli_checks.hpp"
#include "flagged.hpp"
#include "host/data.hpp"
#include "host/sizes.hpp"
#include "lanes.hpp"
#include "merge_reduce.hpp"
#include "reference.hpp"
#include "registry.hpp"
#include "rle.hpp"
#include "segments.hpp"
#include "segreduce.hpp"
#include "segscan.hpp"

using namespace stepwise;
using namespace stepwise::segmented;

namespace {

testing::ParseOutcome run(const std::vector<std::string>& arguments) {
  return testing::outcome_of(chapter(), arguments);
}

/// Every distribution --segments names, with a parameter where it takes one.
const std::vector<std::string> kDistributions = {"uniform:1", "uniform:32", "uniform:5000", "zipf:1.1",
                                                 "zipf:1.5",  "zipf:4",     "empty:0",      "empty:50",
                                                 "empty:99",  "huge",       "ones"};
const std::vector<std::uint64_t> kSizes = {1, 2, 31, 1000, 4097, 100003};

std::vector<std::uint64_t> lengths_of(const std::vector<std::uint64_t>& offsets) {
  std::vector<std::uint64_t> lengths;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) lengths.push_back(offsets[s + 1] - offsets[s]);
  return lengths;
}

}  // namespace

TEST_CASE("--segments parses each distribution and refuses the rest with the text typed") {
  CHECK(parse_segments("uniform:32").kind == SegmentSpec::Kind::uniform);
  CHECK(parse_segments("uniform:32").parameter == 32);
  CHECK(parse_segments("zipf:1.5").parameter == 1.5);
  CHECK(parse_segments("empty:50").kind == SegmentSpec::Kind::empty);
  CHECK(parse_segments("huge").kind == SegmentSpec::Kind::huge);
  CHECK(parse_segments("ones").kind == SegmentSpec::Kind::ones);
  for (const std::string& text : kDistributions) CHECK(to_string(parse_segments(text)) == text);
  for (const std::string bad : {"uniform", "uniform:0", "uniform:-3", "zipf:1", "zipf:4.5", "zipf:x", "zipf:.",
                                "empty:100", "empty:", "huge:1", "ones:2", "bimodal", ""}) {
    CAPTURE(bad);
    try {
      parse_segments(bad);
      FAIL("accepted");
    } catch (const std::invalid_argument& error) {
      CHECK(std::string(error.what()).find("'" + bad + "'") != std::string::npos);
    }
  }
}

TEST_CASE("every distribution covers exactly n items with non-decreasing 64-bit offsets, reproducibly") {
  for (const std::string& text : kDistributions)
    for (std::uint64_t n : kSizes) {
      CAPTURE(text);
      CAPTURE(n);
      const SegmentSpec spec = parse_segments(text);
      const std::vector<std::uint64_t> offsets = make_offsets(n, spec, 7);
      REQUIRE(offsets.size() >= 2);
      CHECK(offsets.front() == 0);
      CHECK(offsets.back() == n);
      CHECK(std::is_sorted(offsets.begin(), offsets.end()));
      CHECK(make_offsets(n, spec, 7) == offsets);
      CHECK(static_cast<double>(offsets.size() - 1) <= expected_segments(n, spec));
      const std::vector<std::uint64_t> lengths = lengths_of(offsets);
      const std::uint64_t longest = *std::max_element(lengths.begin(), lengths.end());
      switch (spec.kind) {
        case SegmentSpec::Kind::ones:
          CHECK(longest == 1);
          CHECK(lengths.size() == n);
          break;
        case SegmentSpec::Kind::uniform:
          CHECK(longest <= 2 * static_cast<std::uint64_t>(spec.parameter));
          break;
        case SegmentSpec::Kind::zipf:
          CHECK(*std::min_element(lengths.begin(), lengths.end()) >= 1);
          break;
        case SegmentSpec::Kind::empty:
          CHECK(longest <= 31);
          if (spec.parameter > 0) {
            CHECK(lengths.front() == 0);  // empty segments at both ends
            CHECK(lengths.back() == 0);
          } else {
            CHECK(std::count(lengths.begin(), lengths.end(), 0u) == 0);
          }
          break;
        case SegmentSpec::Kind::huge:
          if (n >= 64) CHECK(longest == n / 2);
          break;
      }
    }
  // The share of empty segments is near P, and a different seed draws different segments.
  const std::vector<std::uint64_t> half = lengths_of(make_offsets(100000, parse_segments("empty:50"), 3));
  const double empty = static_cast<double>(std::count(half.begin(), half.end(), 0u)) / half.size();
  CHECK(empty == doctest::Approx(0.5).epsilon(0.05));
  CHECK(make_offsets(100000, parse_segments("uniform:32"), 3) != make_offsets(100000, parse_segments("uniform:32"), 4));
}

TEST_CASE("the values are never all equal: int32 over all 32 bits, floats in [-1, 1)") {
  const std::vector<std::int32_t> ints = make_values<std::int32_t>(4096, 11);
  CHECK(std::set<std::int32_t>(ints.begin(), ints.end()).size() > 4000);
  CHECK(std::count_if(ints.begin(), ints.end(), [](std::int32_t v) { return v < 0; }) > 1000);
  const std::vector<float> floats = make_values<float>(4096, 11);
  const std::vector<double> doubles = make_values<double>(4096, 11);
  CHECK(std::all_of(floats.begin(), floats.end(), [](float v) { return v >= -1.0f && v < 1.0f; }));
  CHECK(std::all_of(doubles.begin(), doubles.end(), [](double v) { return v >= -1.0 && v < 1.0; }));
  CHECK(std::set<float>(floats.begin(), floats.end()).size() > 4000);
  // float64 values carry more than float32's 24 bits.
  CHECK(std::count_if(doubles.begin(), doubles.end(),
                      [](double v) { return static_cast<double>(static_cast<float>(v)) != v; }) > 4000);
}

TEST_CASE("the segmented reduce reference: exact wrapping int32 sums, 0 for empty segments, double sums and scales") {
  const std::vector<std::uint64_t> offsets = {0, 0, 3, 3, 5, 5};  // empty segments at both ends and between
  const std::vector<std::int32_t> ints = {std::numeric_limits<std::int32_t>::max(), 1, 5, -7, -2};
  const Expected<std::int32_t> sums = segreduce_reference(ints, offsets);
  CHECK(sums.exact == std::vector<std::int32_t>{0, std::numeric_limits<std::int32_t>::min() + 5, 0, -9, 0});
  const std::vector<float> floats = {0.5f, -0.25f, 1.0f, -0.75f, 0.125f};
  const Expected<float> real = segreduce_reference(floats, offsets);
  CHECK(real.value == std::vector<double>{0.0, 1.25, 0.0, -0.625, 0.0});
  CHECK(real.scale == std::vector<double>{0.0, 1.75, 0.0, 0.875, 0.0});
}

TEST_CASE("the float check passes a reordered sum and fails one item dropped, a nonzero empty segment, NaN") {
  const std::vector<std::uint64_t> offsets = make_offsets(20000, parse_segments("uniform:500"), 5);
  const std::vector<float> values = make_values<float>(20000, 5);
  const Expected<float> want = segreduce_reference(values, offsets);
  std::vector<float> backwards(offsets.size() - 1);  // every segment summed in float, last item first
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    float sum = 0.0f;
    for (std::uint64_t i = offsets[s + 1]; i > offsets[s]; --i) sum += values[i - 1];
    backwards[s] = sum;
  }
  CHECK(check_against(backwards, want).passed);
  std::vector<float> dropped = backwards;
  dropped[3] -= values[offsets[4] - 1];
  CHECK_FALSE(check_against(dropped, want).passed);
  std::vector<float> nan = backwards;
  nan[0] = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(check_against(nan, want).passed);
  const std::vector<std::uint64_t> with_empty = {0, 2, 2, 4};
  const Expected<double> zero = segreduce_reference(std::vector<double>{0.5, 0.25, -1.0, 0.75}, with_empty);
  CHECK(check_against(std::vector<double>{0.75, 0.0, -0.25}, zero).passed);
  CHECK_FALSE(check_against(std::vector<double>{0.75, 1e-300, -0.25}, zero).passed);
  const Expected<std::int32_t> exact = segreduce_reference(std::vector<std::int32_t>{1, 2, 3, 4}, with_empty);
  CHECK_FALSE(check_against(std::vector<std::int32_t>{3, 0, 6}, exact).passed);
  CHECK(check_against(std::vector<std::int32_t>{3, 0, 7}, exact).passed);
}

TEST_CASE("the registry names every problem once, each complete, and --problem takes exactly those names") {
  std::set<std::string> names;
  for (const SegmentedProblem& problem : segmented_problems()) {
    CAPTURE(problem.name);
    CHECK(names.insert(problem.name).second);
    CHECK(&find_problem(problem.name) == &problem);
    CHECK((problem.stages != nullptr));
    CHECK((problem.host_bytes != nullptr));
    CHECK((problem.analyze != nullptr));
    CHECK((problem.run != nullptr));
    CHECK_FALSE(problem.summary.empty());
    const testing::ParseOutcome listed = run({"--problem", problem.name, "--list"});
    CHECK(listed.code == 0);
    for (const char* type : {"int32", "float32", "float64"})
      CHECK(run({"--problem", problem.name, "--type", type, "--check-options"}).code == 0);
  }
  CHECK(names.count("segreduce") == 1);
  CHECK_THROWS_AS(find_problem("setops"), std::invalid_argument);
  const testing::ParseOutcome refused = run({"--problem", "setops"});
  CHECK(refused.code == 2);
  CHECK(refused.err.find("setops") != std::string::npos);
  CHECK(std::count(refused.err.begin(), refused.err.end(), '\n') == 1);
}

TEST_CASE("bad options exit 2 with one line naming what was typed; good ones pass --check-options") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> refusals = {
      {{"--type", "int8"}, "int8"},
      {{"--segments", "zipf:9"}, "zipf:9"},
      {{"--segments", "empty:100"}, "empty:100"},
      {{"--n", "2^32"}, "--n 2^32"},
      {{"--segments", "empty:99", "--n", "2^31"}, "empty:99"},
      {{"--analyze", "--reps", "3"}, "--reps"},
      {{"--problem", "rle", "--stage", "cub::RunLengthEncode", "--n", "2^31+5"},
       "--stage with --n 2^31+5: cub::RunLengthEncode takes at most 2^31-1 keys"}};
  for (const auto& [bad, named] : refusals) {
    const testing::ParseOutcome outcome = run(bad);
    CAPTURE(named);
    CHECK(outcome.code == 2);
    CHECK(outcome.err.find(named) != std::string::npos);
    CHECK(std::count(outcome.err.begin(), outcome.err.end(), '\n') == 1);
  }
  for (const std::string& text : kDistributions)
    if (text != "empty:99") CHECK(run({"--segments", text, "--n", "2^31+5", "--check-options"}).code == 0);
  // Another selected row takes 2^31 + 5 keys: the run goes on, Encode left out with a note.
  CHECK(run({"--problem", "rle", "--stage", "lib", "--n", "2^31+5", "--check-options"}).code == 0);
  CHECK(run({"--problem", "rle", "--stage", "1", "--stage", "cub::RunLengthEncode", "--n", "2^31+5", "--check-options"})
            .code == 0);
  CHECK(run({"--problem", "rle", "--stage", "cub::RunLengthEncode", "--n", "2^31-1", "--check-options"}).code == 0);
  CHECK(testing::plan_of(chapter(), {"--type", "float64", "--segments", "huge"}).type == ValueType::float64);
}

TEST_CASE("--list shows every row of the segmented reduce table with its lesson") {
  const testing::ParseOutcome listed = run({"--problem", "segreduce", "--list"});
  for (const SegReduceStage<float>& stage : segreduce_stages<float>()) {
    CAPTURE(stage.name);
    CHECK(listed.out.find(stage.name) != std::string::npos);
    CHECK(listed.out.find(stage.lesson) != std::string::npos);
    CHECK((stage.kind == RowKind::library) == (stage.traits.plan == nullptr));
  }
}

TEST_CASE("lane_work counts lane-steps and the most items per thread of each work plan") {
  const std::vector<std::uint64_t> offsets = {0, 3, 3, 10};  // lengths 3, 0, 7: n = 10, 3 segments
  const LaneWork thread = lane_work({WorkUnit::thread, 1, 0}, offsets);
  CHECK(thread.lane_steps == 32.0 * 7);  // one warp, as long as its longest segment
  CHECK(thread.most_items == 7);
  const LaneWork warp = lane_work({WorkUnit::group, 32, 0}, offsets);
  CHECK(warp.lane_steps == 3.0 * 32);  // a warp per segment, one step each (the empty one too)
  CHECK(warp.most_items == 1);
  const LaneWork quads = lane_work({WorkUnit::group, 4, 0}, offsets);
  CHECK(quads.lane_steps == 32.0 * 2);  // one warp of 8 groups; 7 items over 4 lanes: 2 steps
  CHECK(quads.most_items == 2);
  const LaneWork block = lane_work({WorkUnit::block, 256, 0}, offsets);
  CHECK(block.lane_steps == 3.0 * 256);
  const LaneWork merge = lane_work({WorkUnit::merge, 1, 7}, offsets);
  CHECK(merge.lane_steps == 14.0);  // 13 merge steps over threads of 7
  CHECK(merge.most_items == 7);
  CHECK(describe_plan({WorkUnit::group, 8, 0}) == "8 lanes/segment");
  CHECK(describe_plan({WorkUnit::merge, 1, 7}) == "Merge Path, VT = 7");
}

TEST_CASE("the tuned row picks by the statistics and explains its pick") {
  int tuned_rows = 0;
  for (const SegReduceStage<float>& stage : segreduce_stages<float>()) {
    if (stage.traits.explain == nullptr) continue;
    ++tuned_rows;
    const auto pick = [&](const char* text, std::uint64_t n) {
      return stage.traits.plan(segment_stats(make_offsets(n, parse_segments(text), 1)), stage.shape);
    };
    CHECK(pick("ones", 100000).unit == WorkUnit::group);
    CHECK(pick("ones", 100000).lanes == 1);
    // The power of two nearest mean / 4 on a log scale: a sample's mean a little above or below 32 gets eight lanes.
    for (std::uint64_t n : {std::uint64_t{100000}, std::uint64_t{1000003}, std::uint64_t{4000037}}) {
      CAPTURE(n);
      const WorkPlan uniform = pick("uniform:32", n);
      CHECK(uniform.unit == WorkUnit::group);
      CHECK(uniform.lanes == 8);
      CHECK(pick("uniform:8", n).lanes == 2);
      CHECK(pick("uniform:64", n).lanes == 16);
    }
    CHECK(pick("huge", 100000).unit == WorkUnit::merge);
    CHECK(pick("zipf:1.2", 1000000).unit == WorkUnit::merge);
    CHECK(pick("uniform:100000", 10000000).unit == WorkUnit::block);
    CHECK(pick("empty:0", 100000).unit == WorkUnit::group);  // even lengths: a group
    CHECK(pick("uniform:1", 100000).unit == WorkUnit::group);
    CHECK(pick("empty:50", 100000).unit == WorkUnit::merge);  // uneven ones: Merge Path
    CHECK(pick("empty:99", 100000).unit == WorkUnit::merge);
    CHECK(pick("zipf:2.5", 100000).unit == WorkUnit::merge);
    const std::string why = stage.traits.explain(segment_stats(make_offsets(100000, parse_segments("huge"), 1)));
    CHECK(why.find("Merge Path") != std::string::npos);
    CHECK(why.find("mean length") != std::string::npos);
  }
  CHECK(tuned_rows == 1);
}

TEST_CASE("--analyze prints each kernel row's work, lane-steps and idle lanes from the model") {
  for (const char* text : {"uniform:32", "huge", "ones", "empty:50"}) {
    CAPTURE(text);
    ParsedChapter<Plan> parsed(chapter());
    const testing::ParseOutcome outcome =
        testing::parse_captured(parsed, {"--analyze", "--n", "100003", "--segments", text});
    REQUIRE_FALSE(outcome.code.has_value());
    const std::string printed = chapter().analyze.print(parsed.plan(), parsed.options());
    const std::vector<std::uint64_t> offsets = make_offsets(100003, parse_segments(text), parsed.options().seed);
    const SegmentStats stats = segment_stats(offsets);
    for (const SegReduceStage<float>& stage : segreduce_stages<float>()) {
      CAPTURE(stage.name);
      if (stage.traits.plan == nullptr) {
        CHECK(printed.find(stage.name) == std::string::npos);
        continue;
      }
      const WorkPlan plan = stage.traits.plan(stats, stage.shape);
      const LaneWork work = lane_work(plan, offsets);
      CHECK(printed.find(stage.name) != std::string::npos);
      CHECK(printed.find(describe_plan(plan)) != std::string::npos);
      CHECK(printed.find(format_grouped(static_cast<std::int64_t>(work.lane_steps))) != std::string::npos);
      CHECK(work.lane_steps >= 100003.0);  // every item takes a lane-step
    }
  }
}

TEST_CASE("--analyze --format json writes each row's work and the lanes example, which adds every item once") {
  for (const char* text : {"uniform:32", "huge", "ones", "empty:50", "zipf:1.5"}) {
    CAPTURE(text);
    const testing::ParseOutcome outcome =
        testing::outcome_of(chapter(), {"--analyze", "--format", "json", "--n", "100003", "--segments", text});
    REQUIRE(outcome.code == 0);
    const nlohmann::json document = nlohmann::json::parse(outcome.out);
    CHECK(document["analysis"] == "segmented");
    CHECK(document["chapter"] == "10");
    CHECK(document["problem"] == "segreduce");
    CHECK(document["n"] == 100003);
    CHECK(document["segments"] == text);
    // The rows: what the text prints, from the same model.
    const std::vector<std::uint64_t> offsets = make_offsets(100003, parse_segments(text), document["seed"]);
    const SegmentStats stats = segment_stats(offsets);
    CHECK(document["stats"]["segments"] == stats.segments);
    std::size_t planned = 0;
    for (const SegReduceStage<float>& stage : segreduce_stages<float>()) {
      if (stage.traits.plan == nullptr) continue;
      CAPTURE(stage.name);
      REQUIRE(planned < document["rows"].size());
      const nlohmann::json& row = document["rows"][planned++];
      const WorkPlan plan = stage.traits.plan(stats, stage.shape);
      CHECK(row["name"] == stage.name);
      CHECK(row["work"] == describe_plan(plan));
      CHECK(row["lane_steps"].get<double>() == lane_work(plan, offsets).lane_steps);
      CHECK(row["idle"].get<double>() == doctest::Approx(1.0 - 100003.0 / lane_work(plan, offsets).lane_steps));
    }
    CHECK(planned == document["rows"].size());
    // The example: its offsets, and per row units that add every item exactly once and run lane_work's lane-steps.
    const nlohmann::json& lanes = document["segment_lanes"];
    const std::vector<std::uint64_t> example = lanes_example_offsets(parse_segments(text));
    CHECK(lanes["offsets"].get<std::vector<std::uint64_t>>() == example);
    CHECK((example.size() - 1 >= kLanesExampleSegments || example.back() == kLanesExampleMostItems));
    const std::vector<std::uint32_t> ids = segment_ids_of(example);
    REQUIRE(lanes["stages"].size() == planned);  // every segreduce row is per segment or Merge Path: all drawn
    for (const nlohmann::json& stage : lanes["stages"]) {
      CAPTURE(stage["name"].get<std::string>());
      std::vector<int> added(example.back(), 0);
      std::vector<int> closed(example.size() - 1, 0);
      double lane_steps = 0;
      for (const nlohmann::json& unit : stage["units"]) {
        lane_steps += unit["lanes"].get<double>() * unit["steps"].get<double>();
        for (const nlohmann::json& cell : unit["cells"]) {
          CHECK(cell["lane"] < unit["lanes"]);
          CHECK(cell["step"] < unit["steps"]);
          const std::int64_t item = cell["item"];
          if (item < 0) {
            ++closed[cell["segment"].get<std::size_t>()];
          } else {
            ++added[static_cast<std::size_t>(item)];
            CHECK(ids[static_cast<std::size_t>(item)] == cell["segment"]);
          }
        }
      }
      CHECK(lane_steps == stage["lane_steps"].get<double>());
      CHECK(std::all_of(added.begin(), added.end(), [](int count) { return count == 1; }));
      if (stage["unit"] == "merge")  // Merge Path closes every segment once, the empty ones too
        CHECK(std::all_of(closed.begin(), closed.end(), [](int count) { return count == 1; }));
    }
  }
  // Merge Path's threads: VT steps each from merge_path's cross point, in order.
  const std::vector<std::uint64_t> offsets = {0, 3, 3, 10};  // lengths 3, 0, 7
  const std::vector<LaneUnit> units = lane_units({WorkUnit::merge, 1, 5}, offsets);
  REQUIRE(units.size() == 3);  // 13 steps in threads of 5
  CHECK(units[1].a == 2);      // steps 0..4: items 0, 1, 2, end 0, end 1
  CHECK(units[1].b == 3);
  CHECK(units[0].segments == std::vector<std::uint64_t>{0, 1});
  CHECK(units[2].segments == std::vector<std::uint64_t>{2});
  const std::vector<LaneUnit> quads = lane_units({WorkUnit::group, 4, 0}, offsets);
  REQUIRE(quads.size() == 1);
  CHECK(quads[0].steps == 2);                      // 7 items over 4 lanes
  CHECK(quads[0].cells.back().lane == 2 * 4 + 2);  // item 9: group 2, lane 2, step 1
  CHECK(quads[0].cells.back().step == 1);
  // The text stays the default, and --analyze prints table or json only.
  CHECK(testing::outcome_of(chapter(), {"--analyze", "--n", "1000"}).out.find("lane-steps") != std::string::npos);
  CHECK(testing::exit_code_of(chapter(), {"--analyze", "--format", "csv"}) == 2);
  const testing::ParseOutcome scan =
      testing::outcome_of(chapter(), {"--analyze", "--format", "json", "--problem", "segscan", "--n", "1000"});
  REQUIRE(scan.code == 0);
  const nlohmann::json scan_document = nlohmann::json::parse(scan.out);
  CHECK(scan_document["problem"] == "segscan");
  CHECK_FALSE(scan_document["rows"].empty());
  CHECK_FALSE(scan_document.contains("segment_lanes"));
}

// Segmented scan ---------------------------------------------------------------------------------

namespace {

/// The (flag, value) pairs of @p values cut by @p offsets: flag 1 on the first item of every
/// non-empty segment, as stage 2 derives them from the segment ids.
std::vector<Flagged<std::uint32_t>> pairs_of(const std::vector<std::int32_t>& values,
                                             const std::vector<std::uint64_t>& offsets) {
  const std::vector<std::uint32_t> ids = segment_ids_of(offsets);
  std::vector<Flagged<std::uint32_t>> pairs(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    pairs[i] = {i == 0 || ids[i] != ids[i - 1] ? 1u : 0u, static_cast<std::uint32_t>(values[i])};
  return pairs;
}

bool same(const Flagged<std::uint32_t>& a, const Flagged<std::uint32_t>& b) {
  return a.flag == b.flag && a.value == b.value;
}

}  // namespace

TEST_CASE("the flagged pair operator is associative, not commutative, and (0, 0) is its identity") {
  const FlaggedPlus<std::uint32_t> op;
  const std::vector<std::int32_t> values = make_values<std::int32_t>(64, 21);
  std::vector<Flagged<std::uint32_t>> pairs;
  for (std::size_t i = 0; i < values.size(); ++i)
    pairs.push_back({seeded_hash(21, 5, i) % 3 == 0 ? 1u : 0u, static_cast<std::uint32_t>(values[i])});
  int non_commuting = 0;
  for (const auto& a : pairs)
    for (const auto& b : pairs) {
      CHECK(same(op(FlaggedPlus<std::uint32_t>::identity(), a), a));
      CHECK(same(op(a, FlaggedPlus<std::uint32_t>::identity()), a));
      for (std::size_t c = 0; c < pairs.size(); c += 7) CHECK(same(op(op(a, b), pairs[c]), op(a, op(b, pairs[c]))));
      non_commuting += !same(op(a, b), op(b, a));
    }
  CHECK(non_commuting > 1000);
  // The classic case: a flagged right operand cuts off the left one's sum, in one order only.
  CHECK(same(op({0u, 5u}, {1u, 7u}), {1u, 7u}));
  CHECK(same(op({1u, 7u}, {0u, 5u}), {1u, 12u}));
  // Floats: the same rule.
  const FlaggedPlus<double> real;
  CHECK(real({0u, 0.5}, {1u, 0.25}).value == 0.25);
  CHECK(real({1u, 0.25}, {0u, 0.5}).value == 0.75);
}

TEST_CASE("the segmented scan reference restarts at every segment and wraps int32 sums") {
  const std::vector<std::uint64_t> offsets = {0, 0, 3, 3, 5, 5};
  const std::vector<std::int32_t> ints = {std::numeric_limits<std::int32_t>::max(), 1, 5, -7, -2};
  CHECK(segscan_reference(ints, offsets).exact ==
        std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min(),
                                  std::numeric_limits<std::int32_t>::min() + 5, -7, -9});
  const Expected<float> real = segscan_reference(std::vector<float>{0.5f, -0.25f, 1.0f, -0.75f, 0.125f}, offsets);
  CHECK(real.value == std::vector<double>{0.5, 0.25, 1.25, -0.75, -0.625});
  CHECK(real.scale == std::vector<double>{0.5, 0.75, 1.75, 0.75, 0.875});
}

TEST_CASE("scanning the flagged pairs in any grouping gives the segmented scan: serially and tile by tile") {
  for (const char* text : {"uniform:32", "empty:50", "huge", "ones", "zipf:1.5"}) {
    CAPTURE(text);
    const std::uint64_t n = 10007;
    const std::vector<std::uint64_t> offsets = make_offsets(n, parse_segments(text), 13);
    const std::vector<std::int32_t> values = make_values<std::int32_t>(n, 13);
    const std::vector<std::int32_t> want = segscan_reference(values, offsets).exact;
    const std::vector<Flagged<std::uint32_t>> pairs = pairs_of(values, offsets);
    const FlaggedPlus<std::uint32_t> op;
    // Serially, left to right.
    Flagged<std::uint32_t> running = FlaggedPlus<std::uint32_t>::identity();
    std::vector<std::int32_t> serial(n);
    for (std::uint64_t i = 0; i < n; ++i)
      serial[i] = static_cast<std::int32_t>((running = op(running, pairs[i])).value);
    CHECK(serial == want);
    // As stage 2 groups them: each tile's aggregate, the prefix of the tiles before it, then the tile's own scan.
    const std::uint64_t tile = 896;
    std::vector<std::int32_t> tiled(n);
    Flagged<std::uint32_t> prefix = FlaggedPlus<std::uint32_t>::identity();
    for (std::uint64_t base = 0; base < n; base += tile) {
      Flagged<std::uint32_t> aggregate = FlaggedPlus<std::uint32_t>::identity();
      for (std::uint64_t i = base; i < std::min(n, base + tile); ++i) aggregate = op(aggregate, pairs[i]);
      Flagged<std::uint32_t> inside = prefix;
      for (std::uint64_t i = base; i < std::min(n, base + tile); ++i)
        tiled[i] = static_cast<std::int32_t>((inside = op(inside, pairs[i])).value);
      prefix = op(prefix, aggregate);
    }
    CHECK(tiled == want);
  }
}

TEST_CASE("--problem segscan lists its rows and --analyze counts its tiles") {
  const testing::ParseOutcome listed = run({"--problem", "segscan", "--list"});
  for (const SegScanStage<float>& stage : segscan_stages<float>()) {
    CAPTURE(stage.name);
    CHECK(listed.out.find(stage.lesson) != std::string::npos);
    CHECK((stage.kind == RowKind::library) == (stage.traits.plan == nullptr));
  }
  ParsedChapter<Plan> parsed(chapter());
  REQUIRE_FALSE(testing::parse_captured(parsed, {"--problem", "segscan", "--analyze", "--n", "1000"}).code.has_value());
  const std::string printed = chapter().analyze.print(parsed.plan(), parsed.options());
  for (const SegScanStage<float>& stage : segscan_stages<float>()) {
    if (stage.traits.plan == nullptr) continue;
    const WorkPlan plan = stage.traits.plan(SegmentStats{}, stage.shape);
    CHECK(printed.find(describe_plan(plan)) != std::string::npos);
  }
  CHECK(lane_work({WorkUnit::tile, 128, 7}, {0, 1000}).lane_steps == 1792.0);  // two tiles of 896
}

// Run-length encoding ----------------------------------------------------------------------------

TEST_CASE("the rle reference: a key and a length per run of equal keys") {
  std::vector<std::int32_t> unique;
  std::vector<std::uint32_t> counts;
  rle_reference(std::vector<std::int32_t>{7, 7, 7, -1, 7, 7, 0}, unique, counts);
  CHECK(unique == std::vector<std::int32_t>{7, -1, 7, 0});
  CHECK(counts == std::vector<std::uint32_t>{3, 1, 2, 1});
  rle_reference(std::vector<std::int32_t>{5}, unique, counts);
  CHECK(counts == std::vector<std::uint32_t>{1});
}

TEST_CASE("run keys: every non-empty segment is one run, its length the segment's, empty segments no run") {
  for (const std::string& text : kDistributions)
    for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{31}, std::uint64_t{4097}}) {
      CAPTURE(text);
      CAPTURE(n);
      const std::vector<std::uint64_t> offsets = make_offsets(n, parse_segments(text), 17);
      std::vector<float> drawn = make_values<float>(offsets.size() - 1, 17);
      std::fill(drawn.begin(), drawn.begin() + static_cast<std::ptrdiff_t>(drawn.size() / 2), 0.25f);  // repeats
      const std::vector<float> keys = run_keys(drawn, offsets);
      REQUIRE(keys.size() == n);
      std::vector<float> unique;
      std::vector<std::uint32_t> counts;
      rle_reference(keys, unique, counts);
      std::vector<std::uint32_t> lengths;
      for (std::uint64_t length : lengths_of(offsets))
        if (length > 0) lengths.push_back(static_cast<std::uint32_t>(length));
      CHECK(counts == lengths);
    }
  // int32 keys that repeat at the top of the range wrap as defined.
  const std::vector<std::int32_t> wrapped = run_keys(
      std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::max()},
      {0, 1, 2});
  CHECK(wrapped ==
        std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min()});
}

TEST_CASE("--problem rle lists its rows; the Unique row writes no lengths, and the size sweep skips it") {
  const testing::ParseOutcome listed = run({"--problem", "rle", "--list"});
  int without_lengths = 0;
  for (const RleStage<float>& stage : rle_stages<float>()) {
    CAPTURE(stage.name);
    CHECK(listed.out.find(stage.lesson) != std::string::npos);
    CHECK((stage.kind == RowKind::library) == (stage.traits.plan == nullptr));
    without_lengths += !stage.traits.writes_counts;
    // A row that writes no lengths does less than the problem: never the library the stages are compared with.
    CHECK(stage.matches_library == stage.traits.writes_counts);
  }
  CHECK(without_lengths == 1);
}

TEST_CASE(
    "the Encode row takes fewer than 2^31 keys (CUB counts them in an int here) and refuses more before it calls CUB") {
  int refusing_rows = 0;
  for (const RleStage<float>& stage : rle_stages<float>()) {
    CAPTURE(stage.name);
    // The chapter leaves out a row whose max_items is below --n; only Encode's count is an int.
    CHECK(stage.traits.max_items == (stage.name == "cub::RunLengthEncode" ? 2147483647u : 0u));
    if (stage.name != "cub::RunLengthEncode") continue;
    ++refusing_rows;
    RleArgs<float> args;
    args.n = std::uint64_t{1} << 31;
    Workspace none;  // no bytes: no device memory, and the refusal comes first
    try {
      stage.launch(args, none, stage.shape, nullptr);
      FAIL("the row launched 2^31 keys");
    } catch (const std::invalid_argument& refusal) {
      CHECK(std::string(refusal.what()).find("n = 2147483648 is above 2^31 - 1") != std::string::npos);
    }
  }
  CHECK(refusing_rows == 1);
}

TEST_CASE("the Merge Path decomposition without tiles (4 - shared-memory tile), replayed thread by thread, sums") {
  for (const char* text : {"uniform:32", "empty:50", "empty:99", "huge", "ones", "zipf:1.2"})
    for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{31}, std::uint64_t{4097}})
      for (int vt : {3, 7, 11}) {
        CAPTURE(text);
        CAPTURE(n);
        CAPTURE(vt);
        const std::vector<std::uint64_t> offsets = make_offsets(n, parse_segments(text), 19);
        const std::vector<std::int32_t> values = make_values<std::int32_t>(n, 19);
        const std::uint64_t segments = offsets.size() - 1;
        const std::uint64_t total = n + segments;
        const std::uint64_t threads = (total + vt - 1) / vt;
        const std::uint64_t* ends = offsets.data() + 1;
        std::vector<std::uint32_t> out(segments, 0xDEADBEEFu);
        std::vector<Carry<std::uint32_t>> carries;
        std::uint64_t finished = 0;
        const auto path = [&](std::uint64_t diagonal) {
          return static_cast<std::uint64_t>(merge_path<Bounds::lower>(
              ends, static_cast<std::int64_t>(segments), CountingIterator<std::uint64_t>{0},
              static_cast<std::int64_t>(n), static_cast<std::int64_t>(std::min(diagonal, total)), Less{}));
        };
        for (std::uint64_t t = 0; t < threads; ++t) {
          const std::uint64_t first = t * vt;
          const std::uint64_t last = std::min(first + vt, total);
          const std::uint64_t a = path(first);
          const std::uint64_t a_end = path(last);
          const auto item = [&](std::uint64_t i) { return static_cast<std::uint32_t>(values[i]); };
          const auto finish = [&](std::uint64_t segment, std::uint32_t sum) {
            out[segment] = sum;
            ++finished;
          };
          const Carry<std::uint32_t> carry =
              vt == 3   ? merge_reduce_walk<3, std::uint32_t>(ends, a, a_end, first - a, last - a_end, item, finish)
              : vt == 7 ? merge_reduce_walk<7, std::uint32_t>(ends, a, a_end, first - a, last - a_end, item, finish)
                        : merge_reduce_walk<11, std::uint32_t>(ends, a, a_end, first - a, last - a_end, item, finish);
          CHECK(carry.segment == a_end);
          carries.push_back(carry);
        }
        CHECK(finished == segments);  // every segment end is taken by exactly one thread
        for (const Carry<std::uint32_t>& carry : carries)
          if (carry.segment < segments) out[carry.segment] += carry.sum;  // the fix-up kernel's atomics, in order
        std::vector<std::int32_t> got(out.begin(), out.end());
        CHECK(got == segreduce_reference(values, offsets).exact);
      }
}

TEST_CASE("stage 4's tiles, replayed thread by thread with the warp's reduce by segment, sum every segment") {
  // MergeReduceTile (segreduce.cuh) on the host: a search per tile in global memory, ends kept
  // as ints less the tile's first item, a search per thread in the tile, the walk, the shuffles
  // that add the lanes' last partial sums by segment, and the tile carries.
  for (const char* text : {"uniform:32", "empty:50", "empty:99", "huge", "ones", "zipf:1.2", "uniform:1"})
    for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{31}, std::uint64_t{4097}})
      for (const std::pair<int, int>& tile : {std::pair{32, 3}, std::pair{64, 7}, std::pair{96, 5}}) {
        const int nt = tile.first;
        const int vt = tile.second;
        CAPTURE(text);
        CAPTURE(n);
        CAPTURE(nt);
        CAPTURE(vt);
        const std::vector<std::uint64_t> offsets = make_offsets(n, parse_segments(text), 23);
        const std::vector<std::int32_t> values = make_values<std::int32_t>(n, 23);
        const std::int64_t segments = static_cast<std::int64_t>(offsets.size() - 1);
        const std::int64_t items = static_cast<std::int64_t>(n);
        const std::int64_t spacing = std::int64_t{nt} * vt;
        const std::int64_t tiles = (items + segments + spacing - 1) / spacing;
        const std::uint64_t* ends = offsets.data() + 1;
        std::vector<std::int64_t> partitions;
        for (std::int64_t p = 0; p <= tiles; ++p)
          partitions.push_back(merge_path<Bounds::lower>(ends, segments, CountingIterator<std::uint64_t>{0}, items,
                                                         std::min(p * spacing, items + segments), Less{}));
        std::vector<std::uint32_t> out(offsets.size() - 1, 0xDEADBEEFu);
        std::vector<Carry<std::uint32_t>> carries;
        for (std::int64_t t = 0; t < tiles; ++t) {
          const MergeRange<std::int64_t> range =
              tile_merge_range(segments, items, t, spacing, partitions[t], partitions[t + 1]);
          const int end_count = static_cast<int>(range.a_count());
          const int item_count = static_cast<int>(range.b_count());
          std::vector<std::int32_t> local_ends(end_count);
          for (int k = 0; k < end_count; ++k) {
            local_ends[k] = static_cast<std::int32_t>(ends[range.a_begin + k] - range.b_begin);
            REQUIRE(local_ends[k] >= 0);
            REQUIRE(local_ends[k] <= item_count);
          }
          std::vector<std::uint32_t> sums(end_count, 0xDEADBEEFu);
          std::vector<int> row(nt);
          std::vector<std::uint32_t> part(nt);
          int finished = 0;
          for (int thread = 0; thread < nt; ++thread) {
            const int diagonal = std::min(vt * thread, end_count + item_count);
            const int a = merge_path<Bounds::lower>(local_ends.data(), end_count, CountingIterator<int>{0}, item_count,
                                                    diagonal, Less{});
            const auto item = [&](int i) { return static_cast<std::uint32_t>(values[range.b_begin + i]); };
            const auto finish = [&](int s, std::uint32_t sum) {
              sums[s] = sum;
              ++finished;
            };
            const Carry<std::uint32_t> open =
                vt == 3 ? merge_reduce_walk<3, std::uint32_t>(local_ends.data(), a, end_count, diagonal - a, item_count,
                                                              item, finish)
                : vt == 5 ? merge_reduce_walk<5, std::uint32_t>(local_ends.data(), a, end_count, diagonal - a,
                                                                item_count, item, finish)
                          : merge_reduce_walk<7, std::uint32_t>(local_ends.data(), a, end_count, diagonal - a,
                                                                item_count, item, finish);
            row[thread] = static_cast<int>(open.segment);
            part[thread] = open.sum;
          }
          CHECK(finished == end_count);  // every end of the tile is taken by exactly one thread
          std::uint32_t carry = 0;
          for (int warp = 0; warp < nt / 32; ++warp) {
            int* r = row.data() + warp * 32;
            std::uint32_t* v = part.data() + warp * 32;
            for (int offset = 1; offset < 32; offset *= 2) {  // every lane reads the values before the step
              const std::vector<std::uint32_t> before(v, v + 32);
              for (int lane = 0; lane + offset < 32; ++lane)
                if (r[lane + offset] == r[lane]) v[lane] += before[lane + offset];
            }
            for (int lane = 0; lane < 32; ++lane)
              if ((lane == 0 || r[lane - 1] != r[lane]) && v[lane] != 0)
                (r[lane] < end_count ? sums[r[lane]] : carry) += v[lane];
          }
          for (int k = 0; k < end_count; ++k) out[range.a_begin + k] = sums[k];
          carries.push_back({static_cast<std::uint64_t>(range.a_end), carry});
        }
        for (const Carry<std::uint32_t>& carry : carries)
          if (carry.segment < offsets.size() - 1)
            out[carry.segment] += carry.sum;
          else
            CHECK(carry.sum == 0);  // no item lies past the last end
        std::vector<std::int32_t> got(out.begin(), out.end());
        CHECK(got == segreduce_reference(values, offsets).exact);
      }
}
