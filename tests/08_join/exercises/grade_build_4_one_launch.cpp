// The grader of exercise 08-4 (chapters/08_join/exercises/README.md), a build exercise: the
// student's stage 3 (build_4_one_launch.cu) through chapter 08's GPU checks (join_checks.hpp, as
// test_join_gpu.cpp runs them on every row), for all four joins: the talk's two examples, the
// edges, A + B at every tile edge of the table with every shape of the sweep, heavy duplication,
// spare output rows; poisoned outputs, the count and every pair exact, guard zones. (The int32
// limits, a join of 2^31 - 1 rows, stay with test_join_gpu.cpp, which runs them on stage 3.) Then
// timed beside the chapter's stage 3 on the outer join of 2^24 x 2^24 rows at duplication 1: it
// passes at 90 % of stage 3's GB/s or more (build_exercise.hpp). One line per check.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "build_4_one_launch.hpp"
#include "build_exercise.hpp"
#include "host/data.hpp"
#include "host/sizes.hpp"
#include "join.hpp"
#include "join_checks.hpp"
#include "options.hpp"
#include "problems.hpp"

using namespace stepwise;
using namespace stepwise::join;
using namespace stepwise::testing;

namespace {

const std::string kExercise = "08-4";
const std::string kEveryKind = "inner, left, right and outer joins";

}  // namespace

void stepwise::testing::require_student_stage() { exercises::exercise_08_4_stage(); }

TEST_CASE("exercise 08-4: your stage reproduces the talk's two examples, at every shape of its sweep") {
  const JoinStage yours = exercises::exercise_08_4_stage();
  report_check(kExercise,
               "the talk's two examples, " + kEveryKind + ", the default shape and the " +
                   std::to_string(yours.sweep.size()) + " shapes of the sweep",
               check_join_talk_examples({yours}));
}

TEST_CASE("exercise 08-4: your stage is exact on the edges") {
  const JoinStage yours = exercises::exercise_08_4_stage();
  report_check(kExercise,
               "the edges (an empty side, one row, no key in common, int32 extremes, every key equal), " + kEveryKind +
                   ", " + describe(yours.shape),
               check_join_edges({yours}));
}

TEST_CASE("exercise 08-4: your stage is exact when A + B sits at a tile edge, at every shape of its sweep") {
  const JoinStage yours = exercises::exercise_08_4_stage();
  report_check(kExercise,
               "A + B at every tile edge of the table (" + std::to_string(join_tile_edge_sizes().size()) +
                   " (|A|, |B|) pairs, duplication 2), " + kEveryKind + ", the default shape and the " +
                   std::to_string(yours.sweep.size()) + " shapes of the sweep",
               check_join_tile_edges({yours}));
}

TEST_CASE("exercise 08-4: your stage is exact at duplication 1, 8, 64 and 5000") {
  const JoinStage yours = exercises::exercise_08_4_stage();
  report_check(
      kExercise,
      "duplication 1, 8, 64 and 5000 (up to 2^20 + 3 rows a side), " + kEveryKind + ", " + describe(yours.shape),
      check_join_duplication({yours}));
}

TEST_CASE("exercise 08-4: your stage leaves the output's spare rows alone") {
  const JoinStage yours = exercises::exercise_08_4_stage();
  report_check(kExercise, "spare output rows left poisoned, " + kEveryKind + ", " + describe(yours.shape),
               check_join_spare_rows({yours}));
}

TEST_CASE("exercise 08-4: the speed gate, your stage against stage 3 on the outer join of 2^24 x 2^24 rows") {
  const JoinStage yours = exercises::exercise_08_4_stage();
  const JoinStage solution = join_one_launch();
  Plan plan;  // the chapter's default sizes, 2^24 x 2^24 rows at duplication 1
  plan.kind = JoinKind::outer;
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  JoinProblem problem(plan, seed);
  Tally before;
  before.add(check_join_row(yours, yours.shape, problem));
  report_check(kExercise,
               "the gate's outer join (" + format_count(plan.a_rows) + " x " + format_count(plan.b_rows) +
                   " rows, duplication 1), " + describe(yours.shape),
               before);
  REQUIRE_MESSAGE(before.failed == 0, "a wrong join is not timed");
  const auto work = [&problem](const JoinStage& stage) {
    return [&problem, stage](cudaStream_t stream) { problem.launch(stage, stage.shape, stream); };
  };
  check_speed_gate(kExercise,
                   "the outer join of " + format_count(plan.a_rows) + " x " + format_count(plan.b_rows) + " rows",
                   problem.bytes_moved(), {"yours", work(yours)}, {"stage 3", work(solution)});
}
