// The grader of exercise 02-4 (chapters/02_scan/exercises/README.md), a build exercise: the
// student's stage 6 (build_4_rts_shuffle.cu) through chapter 02's GPU checks (scan_checks.hpp, as
// test_scan_gpu.cpp runs them on every row), for int32 and the affine maps (exact) and float32
// (within the chapter's bound), both scan kinds: every edge size of the chapter's tiles, n = 0, in
// place, its tile's edges, 32-bit transposes; poisoned outputs and guard zones; then timed beside
// the chapter's stage 6 at 2^26 int32: it passes at 90 % of stage 6's GB/s or more
// (build_exercise.hpp). One line per check.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "build_4_rts_shuffle.hpp"
#include "build_exercise.hpp"
#include "host/data.hpp"
#include "host/sizes.hpp"
#include "scan.hpp"
#include "scan_checks.hpp"

using namespace stepwise;
using namespace stepwise::scan;
using namespace stepwise::testing;

namespace {

const std::string kExercise = "02-4";
/// The gate's size: 256 MiB of int32 each way, far beyond any L2.
constexpr std::size_t kGateN = std::size_t{1} << 26;

template <class Op>
std::string op_name() {
  if constexpr (std::is_same_v<Op, WrappingAdd>) return "int32";
  if constexpr (std::is_same_v<Op, FloatAdd>) return "float32";
  return "affine maps";
}

template <class Op>
std::string edge_range() {
  const std::vector<std::size_t> sizes = scan_edge_sizes<Op>();
  return std::to_string(sizes.size()) + " sizes, n = " + format_count(sizes.front()) + " to " +
         format_count(sizes.back());
}

}  // namespace

void stepwise::testing::require_student_stage() {
  exercises::exercise_02_4_stage<WrappingAdd>();
  exercises::exercise_02_4_stage<FloatAdd>();
  exercises::exercise_02_4_stage<ComposeAffine>();
}

TEST_CASE_TEMPLATE("exercise 02-4: your stage scans correctly at every edge size, both kinds", Op, WrappingAdd,
                   FloatAdd, ComposeAffine) {
  const ScanStage<Op> yours = exercises::exercise_02_4_stage<Op>();
  report_check(kExercise, op_name<Op>() + ", every edge size (" + edge_range<Op>() + "), " + describe(yours.shape),
               check_edge_sizes<Op>({yours}));
}

TEST_CASE_TEMPLATE("exercise 02-4: your stage writes nothing for n = 0", Op, WrappingAdd, FloatAdd, ComposeAffine) {
  const ScanStage<Op> yours = exercises::exercise_02_4_stage<Op>();
  report_check(kExercise, op_name<Op>() + ", n = 0, both kinds", check_empty<Op>({yours}));
}

TEST_CASE_TEMPLATE("exercise 02-4: your stage scans in place", Op, WrappingAdd, ComposeAffine) {
  const ScanStage<Op> yours = exercises::exercise_02_4_stage<Op>();
  report_check(kExercise, op_name<Op>() + ", in place (in == out), both kinds", check_in_place<Op>({yours}));
}

TEST_CASE_TEMPLATE("exercise 02-4: your stage scans correctly at its tile's edges", Op, WrappingAdd, FloatAdd,
                   ComposeAffine) {
  const ScanStage<Op> yours = exercises::exercise_02_4_stage<Op>();
  report_check(kExercise, op_name<Op>() + ", the edges of its tile " + describe(yours.shape) + " and 2^20 + 1",
               check_sweep_shapes<Op>({yours}));
}

TEST_CASE_TEMPLATE("exercise 02-4: your stage scans correctly with 32-bit transposes", Op, WrappingAdd, FloatAdd,
                   ComposeAffine) {
  const ScanStage<Op> yours = exercises::exercise_02_4_stage<Op>();
  report_check(kExercise, op_name<Op>() + ", --scalar-transpose at the tiles' edges",
               check_scalar_transpose<Op>({yours}));
}

TEST_CASE("exercise 02-4: the speed gate, your stage against stage 6 at 2^26") {
  const ScanStage<WrappingAdd> yours = exercises::exercise_02_4_stage<WrappingAdd>();
  const ScanStage<WrappingAdd> solution = rts_shuffle<WrappingAdd>();
  const ScanCase<WrappingAdd> scan_case(kGateN, fresh_seed());
  Buffers<WrappingAdd> buffers(scan_case);
  Tally before;
  before.add(check_row(yours, yours.shape, options_of(ScanKind::exclusive), scan_case, buffers));
  report_check(kExercise, "int32, the gate's size (n = " + format_count(kGateN) + "), " + describe(yours.shape),
               before);
  REQUIRE_MESSAGE(before.failed == 0, "a wrong scan is not timed");
  const ScanOptions options = options_of(ScanKind::exclusive);
  const auto work = [&buffers, options](const ScanStage<WrappingAdd>& stage) {
    return [&buffers, options, stage](cudaStream_t stream) {
      stage.launch(buffers.in.data(), buffers.out.data(), kGateN, options, buffers.workspace, stage.shape, stream);
    };
  };
  check_speed_gate(kExercise, "n = " + format_count(kGateN) + " int32, exclusive",
                   2.0 * sizeof(std::int32_t) * static_cast<double>(kGateN), {"yours", work(yours)},
                   {"stage 6", work(solution)});
}
