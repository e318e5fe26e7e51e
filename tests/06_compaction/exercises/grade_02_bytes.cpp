// The grader of exercise 06-2 (chapters/06_compaction/exercises/README.md): the student's bytes moved by
// each stage, against the chapter's --analyze (analysis.hpp's stage_costs, from each stage's cost model),
// on the chapter's own draws, in both forms, with and without a payload.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "02_bytes.hpp"
#include "analysis.hpp"
#include "compaction_inputs.hpp"
#include "exercise_checks.hpp"

using namespace stepwise::compaction;
using stepwise::testing::Differences;

namespace {

/// Every kernel row on every input of @p by_flags and @p payload, against stage_costs.
void grade(bool by_flags, bool payload) {
  const std::vector<SelectRow> rows = grading::kernel_rows();
  Differences differences;
  for (grading::DrawnInput input : grading::drawn_inputs()) {
    input.plan.by_flags = by_flags;
    input.plan.payload = payload;
    std::uint64_t kept = 0;
    const std::vector<StageCost> costs = stage_costs(input.plan, input.n, input.seed, rows, kept);
    REQUIRE(costs.size() == rows.size());
    exercises::CompactionInput yours_in;
    yours_in.n = input.n;
    yours_in.kept = kept;
    yours_in.by_flags = by_flags;
    yours_in.payload = payload;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const std::uint64_t tile = static_cast<std::uint64_t>(rows[r].shape.threads) * rows[r].shape.items;
      const double blocks = static_cast<double>(kAnalyzedSms) * rows[r].shape.blocks_per_sm;
      differences.compare(
          grading::row_name(rows[r]) + ", " + input.name + " (" + std::to_string(kept) + " kept), bytes",
          exercises::bytes_moved(yours_in, rows[r].traits.cost, tile, blocks), costs[r].bytes);
    }
  }
  differences.check();
}

}  // namespace

TEST_CASE("exercise 06-2: the predicate on int32 keys (DeviceSelect::If's form)") { grade(false, false); }

TEST_CASE("exercise 06-2: flag bytes (DeviceSelect::Flagged's form)") { grade(true, false); }

TEST_CASE("exercise 06-2: a payload, with the predicate and with flag bytes") {
  grade(false, true);
  grade(true, true);
}
