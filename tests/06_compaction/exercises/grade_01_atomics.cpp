// The grader of exercise 06-1 (chapters/06_compaction/exercises/README.md): the student's count of the
// atomics each stage issues on the output counter, against the chapter's --analyze (analysis.hpp's
// stage_costs, from each stage's cost model in its own file), on the chapter's own draws.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "01_atomics.hpp"
#include "analysis.hpp"
#include "compaction_inputs.hpp"
#include "exercise_checks.hpp"

using namespace stepwise::compaction;
using stepwise::LaunchShape;
using stepwise::testing::Differences;

namespace {

/// Every row of @p rows on every input, against stage_costs.
void grade(const std::vector<SelectRow>& rows) {
  Differences differences;
  for (const grading::DrawnInput& input : grading::drawn_inputs()) {
    const std::vector<bool> kept = grading::kept_flags(input);
    std::uint64_t model_kept = 0;
    const std::vector<StageCost> costs = stage_costs(input.plan, input.n, input.seed, rows, model_kept);
    REQUIRE(costs.size() == rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const std::uint64_t tile = static_cast<std::uint64_t>(rows[r].shape.threads) * rows[r].shape.items;
      differences.compare(grading::row_name(rows[r]) + ", " + input.name + ", counter atomics",
                          exercises::counter_atomics(kept, rows[r].traits.cost.counter_atomics, tile),
                          costs[r].counter_atomics);
    }
  }
  differences.check();
}

}  // namespace

TEST_CASE("exercise 06-1: every stage at its default shape, on every input") { grade(grading::kernel_rows()); }

TEST_CASE("exercise 06-1: the tiled stages at other tiles (512 x 16, 128 x 4, 32 x 1, 96 x 3)") {
  std::vector<SelectRow> rows;
  for (const SelectRow& row : grading::kernel_rows()) {
    if (row.traits.cost.counter_atomics != CounterAtomics::per_tile) continue;
    for (const LaunchShape shape :
         {LaunchShape{512, 16}, LaunchShape{128, 4}, LaunchShape{32, 1}, LaunchShape{96, 3}}) {
      SelectRow resized = row;
      resized.shape.threads = shape.threads;
      resized.shape.items = shape.items;
      rows.push_back(resized);
    }
  }
  REQUIRE_FALSE(rows.empty());
  grade(rows);
}
