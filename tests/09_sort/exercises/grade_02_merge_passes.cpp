// The grader of exercise 09-2 (chapters/09_sort/exercises/README.md): the student's passes and key bytes of a
// merge sort, against the chapter's model of every merge row (plan.hpp's row_model: the row's traits and
// common/algorithm/merge_sort.hpp's merge_sort_passes, what --analyze prints), for both key widths, at the
// sizes around each tile and up to 2^31 keys; then the passes in --analyze's own table.
#include <doctest/doctest.h>

#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "02_merge_passes.hpp"
#include "chapter.hpp"
#include "cli_checks.hpp"
#include "exercise_checks.hpp"
#include "plan.hpp"
#include "sort.hpp"

using namespace stepwise;
using namespace stepwise::sort;
using stepwise::testing::Differences;
using stepwise::testing::outcome_of;
using stepwise::testing::ParseOutcome;

namespace {

/// The merge table's kernel rows and their variant rows, as --analyze reads them.
template <class K>
std::vector<SortRow> merge_rows() {
  std::vector<SortRow> rows;
  for (const SortStage<K>& stage : merge_stages<K>()) {
    if (stage.kind != RowKind::kernel) continue;
    rows.push_back(facts_of(std::vector<SortStage<K>>{stage}).front());
    for (const SortRow& variant : facts_of(stage.variants)) rows.push_back(variant);
  }
  return rows;
}

/// Sizes around each first run (one short, equal, one over, doubled and one over) and the talk's sizes.
std::vector<std::uint64_t> sizes_for(std::uint64_t first_run) {
  std::vector<std::uint64_t> sizes = {1, 2, 3, 1000, 1025, (1u << 20) + 1, 1u << 26, (1ull << 31) - 1};
  for (std::uint64_t base : {first_run, 2 * first_run, 1000 * first_run})
    for (std::uint64_t n : {base - 1, base, base + 1})
      if (n >= 1) sizes.push_back(n);
  return sizes;
}

void grade(KeyType key) {
  Plan plan;
  plan.problem = Algorithm::merge;
  plan.key = key;
  const std::vector<SortRow> rows = key_bytes(key) == 8 ? merge_rows<std::uint64_t>() : merge_rows<std::uint32_t>();
  REQUIRE(rows.size() >= 3);
  Differences differences;
  for (const SortRow& row : rows) {
    const std::uint64_t first_run = static_cast<std::uint64_t>(row.traits.first_run);
    for (std::uint64_t n : sizes_for(first_run)) {
      const RowModel model = row_model(row, plan, n);
      const exercises::MergeSortCount yours = exercises::predicted_merge_sort(n, first_run, key_bytes(key));
      std::string where = std::string(to_string(key)) + ", stage " + std::to_string(row.number) + " " + row.name;
      if (!row.variant.empty()) where += " (" + row.variant + ")";
      where += " (runs of " + std::to_string(first_run) + "), n = " + std::to_string(n);
      differences.compare(where + ", passes", yours.passes, model.passes);
      differences.compare(where + ", key bytes", static_cast<double>(yours.key_bytes), model.key_bytes);
    }
  }
  differences.check();
}

}  // namespace

TEST_CASE("exercise 09-2: every merge row, uint32 keys") { grade(KeyType::uint32); }
TEST_CASE("exercise 09-2: every merge row, uint64 keys") { grade(KeyType::uint64); }

TEST_CASE("exercise 09-2: your passes are the ones --analyze prints at 2^26 and 2^20 + 1") {
  for (const char* n : {"2^26", "2^20+1"}) {
    const ParseOutcome analysis = outcome_of(chapter(), {"--analyze", "--problem", "merge", "--n", n});
    REQUIRE(analysis.code == 0);
    const std::uint64_t keys = std::string(n) == "2^26" ? 1ull << 26 : (1ull << 20) + 1;
    for (const SortRow& row : facts_of(merge_stages<std::uint32_t>())) {
      if (row.kind != RowKind::kernel) continue;
      const exercises::MergeSortCount yours =
          exercises::predicted_merge_sort(keys, static_cast<std::uint64_t>(row.traits.first_run), 4);
      // --analyze's line: the row's name in 17 columns, then its passes in 8.
      std::ostringstream line;
      line << std::left << std::setw(17) << row.name << std::right << std::setw(8) << yours.passes << " ";
      CAPTURE(n);
      CAPTURE(line.str());
      CHECK_MESSAGE(analysis.out.find(line.str()) != std::string::npos,
                    "--analyze --n " << n << " does not print " << yours.passes << " passes for " << row.name);
    }
  }
}
