// The grader of exercise 04-4 (chapters/04_spmv/exercises/README.md), a build exercise: the
// student's stage 3 (build_4_vector.cu) through chapter 04's GPU checks (spmv_checks.hpp, as
// test_spmv_gpu.cpp runs them on every row), float32 and float64, at the default shape and every
// shape of the sweep (128 and 256 threads x 2 to 32 lanes per row): the lecture's example, no rows,
// empty rows, one row, one column, rectangular matrices, merge totals at the sweep's tile edges,
// scattered columns, rows longer than many tiles, every generator, a larger stencil, the 32-bit
// limit where memory allows, integer values whose sums must be exact, and the same bits run after
// run; y poisoned first, nothing written outside a buffer. Then timed beside the chapter's stage 3
// on the uniform matrix of 4Mi rows of 16 nonzeros, float32: it passes at 90 % of stage 3's GB/s or
// more (build_exercise.hpp). One line per check.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "build_4_vector.hpp"
#include "build_exercise.hpp"
#include "generators.hpp"
#include "host/data.hpp"
#include "matrix.hpp"
#include "problem.hpp"
#include "spmv.hpp"
#include "spmv_checks.hpp"

using namespace stepwise;
using namespace stepwise::spmv;
using namespace stepwise::testing;

namespace {

const std::string kExercise = "04-4";
/// The gate's matrix: the lecture's uniform table, 4Mi rows of 16 random columns (67 M nonzeros,
/// about 0.8 GB with x and y in float32), far beyond any L2; stage 3 runs it with 16 lanes a row.
const std::string kGateSpec = "uniform:4194304:16";

/// The student's stage alone, float and double.
SpmvRows yours() { return {{exercises::exercise_04_4_stage<float>()}, {exercises::exercise_04_4_stage<double>()}}; }

/// What every line's check runs at: both types, every shape.
std::string shapes_line() {
  const SpmvStage<float> stage = exercises::exercise_04_4_stage<float>();
  return "float32 and float64, " + std::to_string(spmv_shapes_of(stage).size()) + " shapes (the default " +
         describe(stage.shape) + ": lanes from the mean row length, and 128 or 256 threads x 2 to 32 lanes)";
}

/// @p specs as one list: `lecture, uniform:100:0, ...`.
std::string joined(const std::vector<std::string>& specs) {
  std::string line;
  for (const std::string& spec : specs) line += (line.empty() ? "" : ", ") + spec;
  return line;
}

}  // namespace

void stepwise::testing::require_student_stage() {
  exercises::exercise_04_4_stage<float>();
  exercises::exercise_04_4_stage<double>();
}

TEST_CASE("exercise 04-4: your stage on the lecture's 4 x 4 example and a matrix without rows") {
  const SpmvRows rows = yours();
  Tally tally = check_spmv_spec(rows, "lecture");
  tally.add(check_spmv_no_rows(rows));
  report_check(kExercise, "the lecture's 4 x 4 example (an empty row) and 0 x 3, " + shapes_line(), tally);
}

TEST_CASE("exercise 04-4: your stage on empty rows, one row, one column and rectangular matrices") {
  report_check(kExercise, joined(spmv_degenerate_specs()) + ", " + shapes_line(),
               check_spmv_specs(yours(), spmv_degenerate_specs()));
}

TEST_CASE("exercise 04-4: your stage with rows + nonzeros at every tile edge +- 1 of its sweep") {
  const SpmvRows rows = yours();
  REQUIRE(!spmv_tiles(rows.float32).empty());
  const std::vector<std::string> specs = spmv_tile_edge_specs(rows);
  report_check(kExercise,
               std::to_string(specs.size()) + " matrices (" + std::to_string(spmv_tiles(rows.float32).size()) +
                   " tiles of threads x lanes, each +- 1, with empty rows, one nonzero a row, or one row of 40), " +
                   shapes_line(),
               check_spmv_specs(rows, specs));
}

TEST_CASE("exercise 04-4: your stage on scattered columns, long rows, every generator and a larger stencil") {
  const SpmvRows rows = yours();
  std::vector<std::string> specs = spmv_scattered_specs();
  for (const auto* list : {&spmv_long_row_specs(), &spmv_generator_specs()})
    specs.insert(specs.end(), list->begin(), list->end());
  specs.push_back("stencil27:64x64x100");
  report_check(kExercise, joined(specs) + ", " + shapes_line(), check_spmv_specs(rows, specs));
}

TEST_CASE("exercise 04-4: your stage at the 32-bit limit, 2^31 - 8 nonzeros") {
  const Tally tally = check_spmv_32_bit_limit({exercises::exercise_04_4_stage<float>()});
  if (tally.runs > 0) report_check(kExercise, std::string(kSpmvLimitSpec) + ", float32, default shape", tally);
}

TEST_CASE("exercise 04-4: your stage equals the exact reference on integer values") {
  report_check(kExercise,
               "integer values and x (every partial sum exact): " + joined(spmv_exact_specs()) + " at " +
                   shapes_line() + "; " + kSpmvHugeRowSpec + " at the default shape",
               check_spmv_exact_every_row(yours()));
}

TEST_CASE("exercise 04-4: your stage gives the same bits run after run") {
  report_check(kExercise, joined(spmv_same_bits_specs()) + ", float32 and float64, default shape, 5 runs each",
               check_spmv_same_bits(yours()));
}

TEST_CASE("exercise 04-4: the speed gate, your stage against stage 3 on 4Mi rows of 16 nonzeros") {
  const SpmvStage<float> yours_stage = exercises::exercise_04_4_stage<float>();
  const SpmvStage<float> solution = spmv_vector<float>();
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const CsrMatrix matrix = generate_matrix(kGateSpec, seed);
  SpmvProblem<float> problem(matrix, seed);
  Tally before;
  before.add(check_run(problem, yours_stage, yours_stage.shape, nullptr));
  report_check(kExercise, kGateSpec + ", float32 (the gate's matrix), " + describe(yours_stage.shape), before);
  REQUIRE_MESSAGE(before.failed == 0, "a wrong y is not timed");
  const auto work = [&problem](const SpmvStage<float>& stage) {
    return [&problem, stage](cudaStream_t stream) { problem.launch(stage, stage.shape, stream); };
  };
  check_speed_gate(kExercise, kGateSpec + " float32", problem.bytes_moved(), {"yours", work(yours_stage)},
                   {"stage 3", work(solution)});
}
