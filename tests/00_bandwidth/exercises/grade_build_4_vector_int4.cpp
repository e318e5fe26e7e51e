// The grader of exercise 00-4 (chapters/00_bandwidth/exercises/README.md), a build exercise: the
// student's stage 5 (build_4_vector_int4.cu) through chapter 00's GPU checks (copy_checks.hpp, as
// test_copy.cpp runs them on every row: every edge size, every shape of the sweep, poisoned outputs,
// guard zones), then timed beside the chapter's stage 5 at 2^26 elements: it passes at 90 % of
// stage 5's GB/s or more (build_exercise.hpp). One line per check.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bandwidth.hpp"
#include "build_4_vector_int4.hpp"
#include "build_exercise.hpp"
#include "copy_checks.hpp"
#include "host/data.hpp"
#include "host/device_buffer.hpp"
#include "host/sizes.hpp"

using namespace stepwise;
using namespace stepwise::bandwidth;
using namespace stepwise::testing;

namespace {

const std::string kExercise = "00-4";
/// The gate's size: 256 MiB each way, far beyond any L2.
constexpr std::size_t kGateN = std::size_t{1} << 26;

}  // namespace

void stepwise::testing::require_student_stage() { exercises::exercise_00_4_stage(); }

TEST_CASE("exercise 00-4: your stage copies exactly at every edge size, at its default shape") {
  const CopyStage yours = exercises::exercise_00_4_stage();
  report_check(kExercise, "every edge size (" + size_range(copy_edge_sizes()) + "), " + describe(yours.shape),
               check_edge_sizes(yours));
}

TEST_CASE("exercise 00-4: your stage copies exactly at every shape of its sweep") {
  const CopyStage yours = exercises::exercise_00_4_stage();
  report_check(kExercise,
               "every shape of the sweep (" + std::to_string(yours.sweep.size()) + " shapes x " +
                   size_range(copy_sweep_sizes()) + ")",
               check_sweep_shapes(yours));
}

TEST_CASE("exercise 00-4: the speed gate, your stage against stage 5 at 2^26") {
  const CopyStage yours = exercises::exercise_00_4_stage();
  const CopyStage solution = vector_int4();
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const std::vector<std::int32_t> input =
      random_ints(kGateN, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
  Tally tally;
  tally.add(check_elementwise(yours.launch, input, input, yours.shape));
  report_check(kExercise, "the gate's size (n = " + format_count(kGateN) + "), " + describe(yours.shape), tally);
  REQUIRE_MESSAGE(tally.failed == 0, "a wrong copy is not timed");
  DeviceBuffer<std::int32_t> in(input);
  DeviceBuffer<std::int32_t> out(kGateN);
  const auto work = [&in, &out](const CopyStage& stage) {
    return
        [&in, &out, stage](cudaStream_t stream) { stage.launch(in.data(), out.data(), kGateN, stage.shape, stream); };
  };
  check_speed_gate(kExercise, "n = " + format_count(kGateN) + " int32", copy_bytes_moved(kGateN),
                   {"yours", work(yours)}, {"stage 5", work(solution)});
}
