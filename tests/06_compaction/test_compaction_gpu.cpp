// GPU tests of chapter 06: every row of both tables (predicate and flags), int32 and float32
// keys, with and without a payload, at the sizes where compaction bugs live (n = 1, a warp and a
// tile +- 1 of every row's shape, several tiles, 2^20 + 3) and the selectivities 0 %, 1 %,
// 50 %, 99 % and 100 %; inputs where one tile alone is all kept or all dropped; runs that cross
// tiles; every shape of every --sweep at its tile edges; and a run past 2^31 elements where
// memory allows (compaction_checks.hpp, which the grader of exercise 06-4 runs on the student's
// stage). Outputs are poisoned first and seeds are fresh; the ordered rows must match the
// reference exactly, the unordered ones as a multiset, nothing may be written past the kept
// count or outside any buffer. A new stage is tested with no edit here, and so is a stage's variant
// row (stage.hpp's with_variants): every test but the 2^31 one runs the variant rows too.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "compaction.hpp"
#include "compaction_checks.hpp"
#include "gpu_checks.hpp"
#include "problems.hpp"

using namespace stepwise;
using namespace stepwise::compaction;
using namespace stepwise::testing;

namespace {

/// The rows of @p form's table, each stage followed by its variant rows.
template <class K>
const std::vector<SelectStage<K>>& rows_of(Form form) {
  static const SelectRows<K> rows = chapter_rows<K>();
  return rows.of(form);
}

/// The shapes a row is tested at with --sweep's: every shape of its sweep, or its one shape.
template <class K>
std::vector<LaunchShape> shapes_of(const SelectStage<K>& stage) {
  return stage.sweep.empty() ? std::vector<LaunchShape>{stage.shape} : stage.sweep;
}

/// The rows (variants too) of @p K's predicate table that read chapter option @p option (StageInfo::options).
template <class K>
std::vector<SelectStage<K>> rows_reading(const std::string& option) {
  std::vector<SelectStage<K>> rows;
  for (const SelectStage<K>& stage : rows_of<K>(Form::predicate))
    if (std::find(stage.options.begin(), stage.options.end(), option) != stage.options.end()) rows.push_back(stage);
  return rows;
}

}  // namespace

TEST_CASE_TEMPLATE("every row keeps exactly the reference's elements at every edge size and selectivity", K,
                   std::int32_t, float) {
  check_edge_sizes<K>(chapter_rows<K>());
}

TEST_CASE("every row is exact when runs of kept and dropped elements cross tiles") {
  check_runs_across_tiles(chapter_rows<std::int32_t>());
}

TEST_CASE("every row is exact when one tile alone is all kept, or all dropped") {
  check_lone_tiles(chapter_rows<std::int32_t>());
}

TEST_CASE_TEMPLATE("every shape of every --sweep is exact at its tile edges", K, std::int32_t, float) {
  check_sweep_shapes<K>(chapter_rows<K>());
}

TEST_CASE("the speculative row is exact when every guess is wrong, and when it draws its ticket first") {
  for (std::size_t n : {std::size_t{1}, std::size_t{4095}, std::size_t{100003}, (std::size_t{1} << 20) + 3})
    for (bool speculative_load : {true, false}) {
      const std::uint64_t seed = fresh_seed();
      CAPTURE(n);
      CAPTURE(speculative_load);
      CAPTURE(seed);
      Plan plan = compaction_plan(true, true, 0.5);
      plan.speculative_load = speculative_load;
      SelectProblem<std::int32_t> problem(n, plan, seed);
      problem.set_guess_shift(speculative_load ? 1 : 0);
      const std::vector<SelectStage<std::int32_t>> rows = rows_reading<std::int32_t>("--speculative-load");
      REQUIRE_FALSE(rows.empty());
      for (const SelectStage<std::int32_t>& stage : rows)
        for (const LaunchShape& shape : shapes_of(stage)) check_row(stage, shape, problem);
    }
}

TEST_CASE("the look-back rows are exact whether they poll at once or late") {
  for (unsigned first_poll_ns : {0u, 5000u}) {
    const std::uint64_t seed = fresh_seed();
    CAPTURE(first_poll_ns);
    CAPTURE(seed);
    Plan plan = compaction_plan(false, false, 0.5);
    plan.first_poll_ns = first_poll_ns;
    const std::size_t n = (std::size_t{1} << 22) + 17;
    SelectProblem<float> problem(n, plan, seed);
    const std::vector<SelectStage<float>> rows = rows_reading<float>("--first-poll-ns");
    REQUIRE_FALSE(rows.empty());
    for (const SelectStage<float>& stage : rows) check_row(stage, stage.shape, problem);
  }
}

TEST_CASE("every row passes 2^31 elements (64-bit indices and counts), where device memory allows") {
  check_beyond_2_31(select_stages<std::int32_t>(Form::predicate));
}

TEST_CASE("a shape that is not compiled is refused before anything is launched") {
  const Plan plan = compaction_plan(false, false);
  SelectProblem<std::int32_t> problem(1000, plan, fresh_seed());
  for (const SelectStage<std::int32_t>& stage : rows_of<std::int32_t>(Form::predicate)) {
    if (stage.sweep.empty() && stage.variant.empty()) continue;  // a variant compiles its own shape only
    CAPTURE(stage.name);
    CAPTURE(stage.variant);
    LaunchShape bad = stage.shape;
    bad.threads = 100;
    CHECK_THROWS_AS(problem.launch(stage, bad, nullptr), std::invalid_argument);
  }
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
}
