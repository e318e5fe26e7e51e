// The grader of exercise 01-4 (chapters/01_reduction/exercises/README.md), a build exercise: the
// student's stage 9 (build_4_warp_shuffle.cu) through chapter 01's GPU checks (reduce_checks.hpp, as
// test_reduce.cpp runs them on every row), for uint32 (the int32 data, bit-exact) and float (within
// the chapter's tolerance): every edge size, every shape of the sweep, repeated runs, n = 0 and
// 2^32 + 5 elements, poisoned outputs and guard zones; then timed beside the chapter's stage 9 at
// 2^26 int32: it passes at 90 % of stage 9's GB/s or more (build_exercise.hpp). One line per check.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "build_4_warp_shuffle.hpp"
#include "build_exercise.hpp"
#include "host/data.hpp"
#include "host/sizes.hpp"
#include "reduce_checks.hpp"
#include "reduction.hpp"

using namespace stepwise;
using namespace stepwise::reduction;
using namespace stepwise::testing;

namespace {

const std::string kExercise = "01-4";
/// The gate's size: the chapter's default, 256 MiB of int32, far beyond any L2.
constexpr std::size_t kGateN = std::size_t{1} << 26;

template <class T>
std::string type_name() {
  return std::is_same_v<T, float> ? "float32" : "int32";
}

}  // namespace

void stepwise::testing::require_student_stage() {
  exercises::exercise_01_4_stage<std::uint32_t>();
  exercises::exercise_01_4_stage<float>();
}

TEST_CASE_TEMPLATE("exercise 01-4: your stage sums correctly at every edge size, at its default shape", T,
                   std::uint32_t, float) {
  const ReduceStage<T> yours = exercises::exercise_01_4_stage<T>();
  report_check(kExercise,
               type_name<T>() + ", every edge size (" + size_range(reduce_edge_sizes()) + "), " + describe(yours.shape),
               check_edge_sizes<T>({yours}));
}

TEST_CASE_TEMPLATE("exercise 01-4: your stage sums correctly at every shape of its sweep", T, std::uint32_t, float) {
  const ReduceStage<T> yours = exercises::exercise_01_4_stage<T>();
  report_check(kExercise,
               type_name<T>() + ", every shape of the sweep (" + std::to_string(yours.sweep.size()) + " shapes x " +
                   size_range(reduce_sweep_sizes()) + ")",
               check_sweep_shapes<T>({yours}));
}

TEST_CASE_TEMPLATE("exercise 01-4: your stage gives the same bits when run again", T, std::uint32_t, float) {
  const ReduceStage<T> yours = exercises::exercise_01_4_stage<T>();
  report_check(kExercise,
               type_name<T>() + ", three runs on one workspace (n = " + format_count((std::size_t{1} << 22) + 3) +
                   ", every shape)",
               check_repeatable<T>({yours}));
}

TEST_CASE_TEMPLATE("exercise 01-4: your stage gives 0 for n = 0", T, std::uint32_t, float) {
  const ReduceStage<T> yours = exercises::exercise_01_4_stage<T>();
  report_check(kExercise, type_name<T>() + ", n = 0 at every shape", check_empty<T>({yours}));
}

TEST_CASE("exercise 01-4: your stage indexes with 64 bits (2^32 + 5 elements)") {
  const ReduceStage<std::uint32_t> yours = exercises::exercise_01_4_stage<std::uint32_t>();
  const Tally tally = check_beyond_2_32({yours});
  if (tally.runs > 0) report_check(kExercise, "int32, n = 2^32+5 (64-bit indices)", tally);
}

TEST_CASE("exercise 01-4: the speed gate, your stage against stage 9 at 2^26") {
  const ReduceStage<std::uint32_t> yours = exercises::exercise_01_4_stage<std::uint32_t>();
  const ReduceStage<std::uint32_t> solution = warp_shuffle<std::uint32_t>();
  ReduceInput<std::uint32_t> input(kGateN, fresh_seed());
  CAPTURE(input.seed);
  DeviceBuffer<std::uint32_t> out(1);
  Tally before;
  before.add(check_run(yours, input, out, yours.shape));
  report_check(kExercise, "int32, the gate's size (n = " + format_count(kGateN) + "), " + describe(yours.shape),
               before);
  REQUIRE_MESSAGE(before.failed == 0, "a wrong sum is not timed");
  const auto work = [&input, &out](const ReduceStage<std::uint32_t>& stage) {
    return [&input, &out, stage](cudaStream_t stream) {
      stage.launch(input.device.data(), out.data(), input.n, input.workspace, stage.shape, stream);
    };
  };
  check_speed_gate(kExercise, "n = " + format_count(kGateN) + " int32",
                   static_cast<double>(sizeof(std::uint32_t)) * (kGateN + 1), {"yours", work(yours)},
                   {"stage 9", work(solution)});
}
