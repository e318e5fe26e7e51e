// The grader of exercise 07-4 (chapters/07_divergence/exercises/README.md), a build exercise: the
// student's stage 3 (build_4_redirect.cu) through chapter 07's GPU checks (divergence_checks.hpp,
// as test_divergence_gpu.cpp runs them on every row), both workloads: the synthetic one at every
// edge size (n = 1 to 100,003), sorted, half and fully mixed, with 1 to 8 paths, and the mutation
// over 1 to 3 generations at rates 0, 10 % and 100 %, every shape of the sweep at 100,003; outputs
// poisoned first, equal to the reference exactly, nothing written outside a buffer. Then timed
// beside the chapter's stage 3 on 2^24 fully mixed synthetic elements of 4 paths (64 to 512
// rounds): it passes at 90 % of stage 3's GB/s or more (build_exercise.hpp). One line per check.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "build_4_redirect.hpp"
#include "build_exercise.hpp"
#include "divergence.hpp"
#include "divergence_checks.hpp"
#include "host/data.hpp"
#include "host/sizes.hpp"
#include "inputs.hpp"
#include "problems.hpp"

using namespace stepwise;
using namespace stepwise::divergence;
using namespace stepwise::testing;

namespace {

const std::string kExercise = "07-4";
/// The gate's size: the chapter's default, 2^24 synthetic elements.
constexpr std::size_t kGateN = std::size_t{1} << 24;

/// The student's stage alone, in both workloads.
DivergeRows yours() {
  return {{exercises::exercise_07_4_stage<Synthetic>()}, {exercises::exercise_07_4_stage<Mutation>()}};
}

/// The sizes of divergence_edge_sizes() as a line: `10 sizes, n = 1 to 100,003`.
std::string edge_sizes_line() {
  const auto& sizes = divergence_edge_sizes();
  return std::to_string(sizes.size()) + " sizes, n = " + format_count(sizes.front()) + " to " +
         format_count(sizes.back());
}

/// The shapes a check runs: the default, and the sweep's at kDivergenceSweepN.
std::string shapes_line() {
  const DivergeStage<Synthetic> stage = exercises::exercise_07_4_stage<Synthetic>();
  return describe(stage.shape) + ", and the " + std::to_string(stage.sweep.size()) +
         " shapes of the sweep at n = " + format_count(kDivergenceSweepN);
}

}  // namespace

void stepwise::testing::require_student_stage() {
  exercises::exercise_07_4_stage<Synthetic>();
  exercises::exercise_07_4_stage<Mutation>();
}

TEST_CASE("exercise 07-4: your stage equals the reference at every edge size, from sorted to fully mixed") {
  report_check(kExercise,
               "synthetic, 4 paths, " + edge_sizes_line() + " x sorted, half and fully mixed warps, " + shapes_line(),
               check_synthetic_edge_sizes(yours()));
}

TEST_CASE("exercise 07-4: your stage with one path, and 2 to 8 paths") {
  report_check(kExercise,
               "synthetic, 1 to " + std::to_string(kMaxPaths) + " paths, n = " + format_count(kDivergencePathsN) +
                   ", fully mixed, default shape",
               check_synthetic_paths(yours()));
}

TEST_CASE("exercise 07-4: your stage on the mutation over 1 to 3 generations, at rates 0, 10 % and 100 %") {
  report_check(kExercise,
               "mutation, n = 1, 33 and " + format_count(kDivergenceSweepN) +
                   ", 1 to 3 generations x rates 0, 10 % and 100 %, default shape, and the sweep's shapes over 3 "
                   "generations at n = " +
                   format_count(kDivergenceSweepN),
               check_mutation_generations(yours()));
}

TEST_CASE("exercise 07-4: the speed gate, your stage against stage 3 on 2^24 fully mixed elements") {
  const DivergeStage<Synthetic> yours_stage = exercises::exercise_07_4_stage<Synthetic>();
  const DivergeStage<Synthetic> solution = redirect<Synthetic>();
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  Plan plan;
  plan.paths = 4;
  plan.rounds = {64, 128, 256, 512};
  plan.divergence = 1.0;
  DivergeProblem<Synthetic> problem(synthetic_work(plan), synthetic_input(kGateN, 4, 1.0, seed), 1);
  Tally before;
  before.add(check_diverge_row(yours_stage, yours_stage.shape, problem));
  report_check(kExercise,
               "synthetic, the gate's size (n = " + format_count(kGateN) + ", 4 paths, fully mixed), " +
                   describe(yours_stage.shape),
               before);
  REQUIRE_MESSAGE(before.failed == 0, "a wrong output is not timed");
  const auto work = [&problem](const DivergeStage<Synthetic>& stage) {
    return [&problem, stage](cudaStream_t stream) { problem.launch(stage, stage.shape, stream); };
  };
  check_speed_gate(kExercise, "n = " + format_count(kGateN) + " synthetic, 4 paths (64 to 512 rounds), fully mixed",
                   problem.bytes_moved(), {"yours", work(yours_stage)}, {"stage 3", work(solution)});
}
