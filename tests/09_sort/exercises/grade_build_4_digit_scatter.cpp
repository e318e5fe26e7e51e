// The grader of exercise 09-4 (chapters/09_sort/exercises/README.md), a build exercise: the student's
// radix stage 2 (build_4_digit_scatter.cu) through chapter 09's GPU checks (sort_checks.hpp, as
// test_sort_gpu.cpp runs them on every row), for uint32, int32, float32 and uint64 keys, keys only
// and pairs: every input class at the edge sizes, three input classes above 2^24 keys, every shape
// of the sweep, 4-bit and 8-bit digits; poisoned outputs and guard zones, keys compared bit for bit
// and values in input order among equal keys (the sort is stable); then timed beside the chapter's
// stage 2 at 2^26 uniform uint32 keys: it passes at 90 % of stage 2's GB/s or more
// (build_exercise.hpp). One line per check.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "build_4_digit_scatter.hpp"
#include "build_exercise.hpp"
#include "host/data.hpp"
#include "host/sizes.hpp"
#include "problems.hpp"
#include "sort.hpp"
#include "sort_checks.hpp"

using namespace stepwise;
using namespace stepwise::sort;
using namespace stepwise::testing;

namespace {

const std::string kExercise = "09-4";
/// The gate's size: the chapter's default, 2^26 uint32 keys (256 MiB), far beyond any L2.
constexpr std::size_t kGateN = std::size_t{1} << 26;

template <class K>
std::string type_name() {
  if constexpr (std::is_same_v<K, float>) return "float32";
  if constexpr (std::is_same_v<K, std::int32_t>) return "int32";
  if constexpr (std::is_same_v<K, std::uint64_t>) return "uint64";
  return "uint32";
}

/// The student's stage, alone.
template <class K>
std::vector<SortStage<K>> yours() {
  return {exercises::exercise_09_4_stage<K>()};
}

}  // namespace

void stepwise::testing::require_student_stage() {
  exercises::exercise_09_4_stage<std::uint32_t>();
  exercises::exercise_09_4_stage<std::int32_t>();
  exercises::exercise_09_4_stage<float>();
  exercises::exercise_09_4_stage<std::uint64_t>();
}

TEST_CASE_TEMPLATE("exercise 09-4: your stage sorts every input class exactly and stably at the edge sizes", K,
                   std::uint32_t, std::int32_t, float, std::uint64_t) {
  const std::vector<InputClass> inputs = all_input_classes();
  report_check(kExercise,
               type_name<K>() + ", keys and pairs, " + std::to_string(inputs.size()) + " input classes x " +
                   size_range(sort_small_sizes()) + ", " + describe(yours<K>().front().shape),
               check_sort_inputs<K>(yours<K>(), sort_small_sizes(), inputs));
}

TEST_CASE_TEMPLATE("exercise 09-4: your stage sorts exactly and stably above 2^24 keys", K, std::uint32_t,
                   std::uint64_t) {
  report_check(kExercise,
               type_name<K>() + ", keys and pairs, uniform, entropy:5 and few:7, n = " + format_count(kSortLargeSize),
               check_sort_inputs<K>(yours<K>(), {kSortLargeSize}, sort_large_inputs()));
}

TEST_CASE_TEMPLATE("exercise 09-4: your stage sorts exactly at every shape of its sweep", K, std::uint32_t,
                   std::uint64_t) {
  report_check(kExercise,
               type_name<K>() + ", pairs of few:300 keys, every shape of the sweep (" +
                   std::to_string(yours<K>().front().sweep.size()) + " shapes) at n = 1, 4097 and 100003",
               check_sort_sweep_shapes<K>(yours<K>()));
}

TEST_CASE_TEMPLATE("exercise 09-4: your stage sorts exactly with 4-bit and 8-bit digits", K, std::uint32_t, float,
                   std::uint64_t) {
  report_check(kExercise,
               type_name<K>() +
                   ", pairs of entropy:2 keys, --digit-bits 4 and 8, every shape of the sweep, n = 1, "
                   "4097 and 2^20 + 17",
               check_sort_digit_bits<K>(yours<K>()));
}

TEST_CASE("exercise 09-4: the speed gate, your stage against stage 2 at 2^26") {
  const SortStage<std::uint32_t> student = exercises::exercise_09_4_stage<std::uint32_t>();
  const SortStage<std::uint32_t> solution = radix_digits<std::uint32_t>();
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  SortProblem<std::uint32_t> problem(kGateN, Plan{}, seed);
  Tally before;
  before.add(check_run(problem, student, student.shape, nullptr));
  report_check(kExercise,
               "uint32, the gate's size (n = " + format_count(kGateN) + ", uniform), " + describe(student.shape),
               before);
  REQUIRE_MESSAGE(before.failed == 0, "a wrong sort is not timed");
  const auto work = [&problem](const SortStage<std::uint32_t>& stage) {
    return [&problem, stage](cudaStream_t stream) { problem.launch(stage, stage.shape, stream); };
  };
  check_speed_gate(kExercise, "n = " + format_count(kGateN) + " uniform uint32 keys", problem.bytes_moved(),
                   {"yours", work(student)}, {"stage 2", work(solution)});
}
