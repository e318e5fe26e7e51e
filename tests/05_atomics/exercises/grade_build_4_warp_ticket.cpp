// The grader of exercise 05-4 (chapters/05_atomics/exercises/README.md), a build exercise: the
// student's ticket stage 2 (build_4_warp_ticket.cu) through chapter 05's GPU checks of the ticket
// rows (ticket_checks.hpp, as test_atomics_gpu.cpp runs them on every row: 11 edge sizes from 1 to
// 2^20 + 1, the default shape and every --sweep shape, the output and the counter poisoned first,
// guard zones), then timed beside the chapter's stage 2 at 2^24 int32, the chapter's default: it
// passes at 90 % of stage 2's GB/s or more (build_exercise.hpp). One line per check.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "atomics.hpp"
#include "build_4_warp_ticket.hpp"
#include "build_exercise.hpp"
#include "host/data.hpp"
#include "host/sizes.hpp"
#include "problems.hpp"
#include "ticket_checks.hpp"

using namespace stepwise;
using namespace stepwise::atomics;
using namespace stepwise::testing;

namespace {

const std::string kExercise = "05-4";
/// The gate's size: the chapter's default, 2^24 int32 (64 MiB read, about half of it written).
constexpr std::size_t kGateN = std::size_t{1} << 24;

}  // namespace

void stepwise::testing::require_student_stage() { exercises::exercise_05_4_stage(); }

TEST_CASE("exercise 05-4: your stage keeps every positive value once, at every edge size and shape") {
  const TicketStage yours = exercises::exercise_05_4_stage();
  const std::vector<std::size_t>& sizes = atomics_edge_sizes();
  report_check(kExercise,
               "every edge size (" + std::to_string(sizes.size()) + " sizes, n = " + format_count(sizes.front()) +
                   " to " + format_count(sizes.back()) + ") x every shape (" + std::to_string(yours.sweep.size()) +
                   " of the sweep and " + describe(yours.shape) + ")",
               check_ticket_edges({yours}));
}

TEST_CASE("exercise 05-4: the speed gate, your stage against stage 2 at 2^24") {
  const TicketStage yours = exercises::exercise_05_4_stage();
  const TicketStage solution = ticket_warp_aggregated();
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  TicketProblem problem(kGateN, seed);
  Tally before;
  before.add(check_ticket_run(problem, yours, yours.shape));
  report_check(kExercise, "the gate's size (n = " + format_count(kGateN) + "), " + describe(yours.shape), before);
  REQUIRE_MESSAGE(before.failed == 0, "a wrong ticket is not timed");
  const auto work = [&problem](const TicketStage& stage) {
    return [&problem, stage](cudaStream_t stream) { problem.launch(stage, stage.shape, stream); };
  };
  check_speed_gate(kExercise, "n = " + format_count(kGateN) + " int32", problem.bytes_moved(), {"yours", work(yours)},
                   {"stage 2", work(solution)});
}
