// The grader of exercise 10-1 (chapters/10_segmented/exercises/README.md): the student's lane-steps and most
// items per thread, against work.hpp's lane_work, the model --analyze prints: every work unit on small hand-made
// segments (empty ones included), every kernel row of the segmented reduce and scan on each --segments
// distribution at the sizes around a warp, then the lane-steps and idle shares in --analyze's own table. A planted
// wrong answer (each segment counted alone, as if a warp did not wait for its longest) must fail the same checks.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "01_idle_lanes.hpp"
#include "chapter.hpp"
#include "cli_checks.hpp"
#include "exercise_checks.hpp"
#include "host/launch.hpp"
#include "host/sizes.hpp"
#include "segments.hpp"
#include "segreduce.hpp"
#include "segscan.hpp"
#include "work.hpp"

using namespace stepwise;
using namespace stepwise::segmented;
using stepwise::testing::Differences;

namespace {

using Answer = std::function<LaneWork(const WorkPlan&, const std::vector<std::uint64_t>&)>;

std::string offsets_text(const std::vector<std::uint64_t>& offsets) {
  std::string text = "{";
  for (std::size_t i = 0; i < offsets.size() && i < 8; ++i) text += (i ? ", " : "") + std::to_string(offsets[i]);
  return text + (offsets.size() > 8 ? ", ... " + std::to_string(offsets.back()) + "}" : "}");
}

void compare(Differences& differences, const Answer& answer, const WorkPlan& plan,
             const std::vector<std::uint64_t>& offsets, const std::string& where) {
  const LaneWork yours = answer(plan, offsets);
  const LaneWork model = lane_work(plan, offsets);
  differences.compare(where + ", lane-steps", yours.lane_steps, model.lane_steps);
  differences.compare(where + ", most items/thread", yours.most_items, model.most_items);
}

/// Every unit on hand-made segments: one item, empty inputs, empty segments between long ones.
void grade_units(Differences& differences, const Answer& answer) {
  const std::vector<std::vector<std::uint64_t>> cases = {
      {0, 1},
      {0, 0},
      {0, 3, 3, 10},
      {0, 0, 0, 33, 33, 100},
      {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
       17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 1000},
      {0, 5000},
      {0, 257, 257, 513}};
  std::vector<WorkPlan> plans = {{WorkUnit::thread, 1, 0}};
  for (int lanes : {1, 2, 4, 8, 16, 32}) plans.push_back({WorkUnit::group, lanes, 0});
  for (int lanes : {64, 256, 1024}) plans.push_back({WorkUnit::block, lanes, 0});
  for (int vt : {1, 7, 11}) plans.push_back({WorkUnit::merge, 1, vt});
  for (auto [nt, vt] : {std::pair{128, 7}, std::pair{96, 5}}) plans.push_back({WorkUnit::tile, nt, vt});
  for (const auto& offsets : cases)
    for (const WorkPlan& plan : plans)
      compare(differences, answer, plan, offsets, describe_plan(plan) + " over " + offsets_text(offsets));
}

/// Every kernel row of @p rows with the plan it picks for each distribution at each size.
template <class Stage>
void grade_rows(Differences& differences, const Answer& answer, const std::vector<Stage>& rows, const char* problem) {
  for (const char* text : {"ones", "uniform:3", "uniform:32", "uniform:1000", "zipf:1.5", "empty:50", "huge"}) {
    for (std::uint64_t n : {1ull, 31ull, 32ull, 33ull, 1000ull, 100003ull}) {
      const std::vector<std::uint64_t> offsets = make_offsets(n, parse_segments(text), 1);
      const SegmentStats stats = segment_stats(offsets);
      for (const Stage& row : rows) {
        if (row.traits.plan == nullptr) continue;
        const WorkPlan plan = row.traits.plan(stats, row.shape);
        compare(differences, answer, plan, offsets,
                std::string(problem) + " stage " + std::to_string(row.number) + " " + row.name + " (" +
                    describe_plan(plan) + "), --segments " + text + ", n = " + std::to_string(n));
      }
    }
  }
}

void grade_all(Differences& differences, const Answer& answer) {
  grade_units(differences, answer);
  grade_rows(differences, answer, segreduce_stages<float>(), "segreduce");
  grade_rows(differences, answer, segscan_stages<float>(), "segscan");
}

/// The planted wrong answer: each segment's own steps, as if the lanes of a warp did not wait for its longest.
LaneWork planted(const WorkPlan& plan, const std::vector<std::uint64_t>& offsets) {
  LaneWork work = lane_work(plan, offsets);
  if (plan.unit != WorkUnit::thread && plan.unit != WorkUnit::group) return work;
  work.lane_steps = 0;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    work.lane_steps += static_cast<double>(plan.lanes) *
                       static_cast<double>(std::max<std::uint64_t>(
                           1, ceil_div(offsets[s + 1] - offsets[s], static_cast<std::uint64_t>(plan.lanes))));
  return work;
}

}  // namespace

TEST_CASE("exercise 10-1: every work unit on hand-made segments") {
  Differences differences;
  grade_units(differences, exercises::predicted_work);
  differences.check();
}

TEST_CASE("exercise 10-1: every kernel row of segreduce and segscan on every distribution") {
  Differences differences;
  grade_rows(differences, exercises::predicted_work, segreduce_stages<float>(), "segreduce");
  grade_rows(differences, exercises::predicted_work, segscan_stages<float>(), "segscan");
  differences.check();
}

TEST_CASE("exercise 10-1: your lane-steps and idle shares are the ones --analyze prints") {
  for (const char* text : {"ones", "uniform:32", "huge"}) {
    const testing::ParseOutcome analysis =
        testing::outcome_of(chapter(), {"--analyze", "--n", "100003", "--segments", text, "--seed", "1"});
    REQUIRE(analysis.code == 0);
    const std::vector<std::uint64_t> offsets = make_offsets(100003, parse_segments(text), 1);
    int rows = 0;
    for (const SegReduceStage<float>& row : segreduce_stages<float>()) {
      if (row.traits.plan == nullptr) continue;
      ++rows;
      const WorkPlan plan = row.traits.plan(segment_stats(offsets), row.shape);
      const LaneWork yours = exercises::predicted_work(plan, offsets);
      std::ostringstream idle;
      idle << std::fixed << std::setprecision(1)
           << (yours.lane_steps > 0 ? 100.0 * (1.0 - 100003.0 / yours.lane_steps) : 0.0) << " %";
      // --analyze's line: the plan in 22 columns, the lane-steps in 12, the idle share in 12.
      std::ostringstream line;
      line << std::left << std::setw(22) << describe_plan(plan) << std::right << std::setw(12)
           << format_grouped(static_cast<std::int64_t>(yours.lane_steps)) << std::setw(12) << idle.str();
      CAPTURE(text);
      CAPTURE(line.str());
      CHECK_MESSAGE(
          analysis.out.find(line.str()) != std::string::npos,
          "--analyze --segments " << text << " does not print your lane-steps and idle share for " << row.name);
    }
    CHECK(rows >= 4);
  }
}

TEST_CASE("exercise 10-1: the grader fails a planted wrong answer (a warp not waiting for its longest segment)") {
  Differences differences;
  grade_all(differences, planted);
  CHECK(differences.count() > 0);
  Differences model;
  grade_all(model, lane_work);
  CHECK(model.count() == 0);
}
