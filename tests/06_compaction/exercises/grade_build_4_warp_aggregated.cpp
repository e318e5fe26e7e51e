// The grader of exercise 06-4 (chapters/06_compaction/exercises/README.md), a build exercise: the
// student's stage 2 (build_4_warp_aggregated.cu) through chapter 06's GPU checks
// (compaction_checks.hpp, as test_compaction_gpu.cpp runs them on every row), for int32 and float32
// keys, both forms (predicate and flags), with and without a payload: every edge size and
// selectivity, runs that cross tiles, one tile alone all kept or all dropped, every shape of the
// sweep and 2^31 + 4099 elements, poisoned outputs and guard zones, the kept elements compared as a
// multiset (the row keeps no order); then timed beside the chapter's stage 2 at 2^26 int32 keys,
// half kept: it passes at 90 % of stage 2's GB/s or more (build_exercise.hpp). One line per check.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "build_4_warp_aggregated.hpp"
#include "build_exercise.hpp"
#include "compaction.hpp"
#include "compaction_checks.hpp"
#include "host/data.hpp"
#include "host/sizes.hpp"
#include "problems.hpp"

using namespace stepwise;
using namespace stepwise::compaction;
using namespace stepwise::testing;

namespace {

const std::string kExercise = "06-4";
/// The gate's size: the chapter's default, 2^26 int32 keys (256 MiB), far beyond any L2.
constexpr std::size_t kGateN = std::size_t{1} << 26;

template <class K>
std::string type_name() {
  return std::is_same_v<K, float> ? "float32" : "int32";
}

/// The inputs' forms, as every check runs them.
const std::string kForms = "predicate and flags, with and without a payload";

}  // namespace

void stepwise::testing::require_student_stage() {
  exercises::exercise_06_4_stage<std::int32_t>();
  exercises::exercise_06_4_stage<float>();
}

TEST_CASE_TEMPLATE("exercise 06-4: your stage keeps exactly the reference's elements at every edge size", K,
                   std::int32_t, float) {
  const SelectRows<K> yours = one_stage(exercises::exercise_06_4_stage<K>());
  report_check(kExercise,
               type_name<K>() + ", every edge size (" + size_range(compaction_edge_sizes(yours)) + ") x " +
                   std::to_string(compaction_selectivities().size()) + " selectivities (0 % to 100 %), " + kForms +
                   ", " + describe(yours.predicate.front().shape),
               check_edge_sizes<K>(yours));
}

TEST_CASE("exercise 06-4: your stage is exact when runs of kept and dropped elements cross tiles") {
  const SelectRows<std::int32_t> yours = one_stage(exercises::exercise_06_4_stage<std::int32_t>());
  report_check(kExercise,
               "int32, runs of 7, 1000 and 5000 (" + size_range(runs_sizes()) + ", 50 % and 99 %), " + kForms,
               check_runs_across_tiles(yours));
}

TEST_CASE("exercise 06-4: your stage is exact when one tile alone is all kept, or all dropped") {
  const SelectRows<std::int32_t> yours = one_stage(exercises::exercise_06_4_stage<std::int32_t>());
  report_check(kExercise,
               "int32, n = " + format_count(kLoneTileN) +
                   ", elements 4096 to 6143 alone kept, or alone dropped, both forms, with a payload",
               check_lone_tiles(yours));
}

TEST_CASE_TEMPLATE("exercise 06-4: your stage is exact at every shape of its sweep", K, std::int32_t, float) {
  const SelectRows<K> yours = one_stage(exercises::exercise_06_4_stage<K>());
  report_check(kExercise,
               type_name<K>() + ", every shape of the sweep (" + std::to_string(yours.predicate.front().sweep.size()) +
                   " shapes and the default, at " + size_range(sweep_sizes(yours)) + ", 50 %), both forms",
               check_sweep_shapes<K>(yours));
}

TEST_CASE("exercise 06-4: your stage indexes and counts with 64 bits (2^31 + 4099 elements)") {
  const Tally tally = check_beyond_2_31({exercises::exercise_06_4_stage<std::int32_t>()});
  if (tally.runs > 0) report_check(kExercise, "int32, n = 2^31+4099 (64-bit indices and counts), 1 %", tally);
}

TEST_CASE("exercise 06-4: the speed gate, your stage against stage 2 at 2^26") {
  const SelectStage<std::int32_t> yours = exercises::exercise_06_4_stage<std::int32_t>();
  const SelectStage<std::int32_t> solution = warp_aggregated<std::int32_t>();
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const Plan plan = compaction_plan(false, false, 0.5);
  SelectProblem<std::int32_t> problem(kGateN, plan, seed);
  Tally before;
  before.add(check_row(yours, yours.shape, problem));
  report_check(kExercise, "int32, the gate's size (n = " + format_count(kGateN) + ", 50 %), " + describe(yours.shape),
               before);
  REQUIRE_MESSAGE(before.failed == 0, "a wrong compaction is not timed");
  const auto work = [&problem](const SelectStage<std::int32_t>& stage) {
    return [&problem, stage](cudaStream_t stream) { problem.launch(stage, stage.shape, stream); };
  };
  check_speed_gate(kExercise, "n = " + format_count(kGateN) + " int32 keys, 50 % kept", problem.bytes_moved(),
                   {"yours", work(yours)}, {"stage 2", work(solution)});
}
