// GPU tests of chapter 08: every row of the table, for all four joins, on the talk's two worked
// examples; on the edges where join bugs live (an empty side, one row, no key in common, every
// key equal so that the output is |A| x |B|); at inputs whose A + B sit at a tile edge of every
// row's shape; at heavy duplication, where one object's rows cross many tiles; with spare rows
// of output that must stay untouched; at every shape of every --sweep; and at the int32 limits
// (A + B = 2^31 - 1 rows), where memory allows. Outputs are poisoned
// first and seeds are fresh; the count and every pair must equal the sequential sort-merge
// reference exactly, and nothing may be written outside any buffer. A new stage is tested with
// no edit here, and so is a stage's variant row (stage.hpp's with_variants): every test but the
// 2^31 one runs the variant rows too, on every join kind. The checks are join_checks.hpp's, which
// the grader of exercise 08-4 runs on the student's stage.
#include <doctest/doctest.h>

#include <stdexcept>

#include "join.hpp"
#include "join_checks.hpp"
#include "problems.hpp"

using namespace stepwise;
using namespace stepwise::join;
using namespace stepwise::testing;

TEST_CASE("every row reproduces the talk's outer-join table and inner-join walk-through, every kind") {
  check_join_talk_examples(join_rows());
}

TEST_CASE("every row on the edges: an empty side, one row, no key in common, every key equal") {
  check_join_edges(join_rows());
}

TEST_CASE("every row is exact when A + B sits at a tile edge of any shape, and at every sweep shape") {
  check_join_tile_edges(join_rows());
}

TEST_CASE("every row is exact at duplication 1, 8 and 64, where one key's rows cross many tiles") {
  check_join_duplication(join_rows());
}

TEST_CASE("a row leaves the output's spare rows alone and counts exactly") { check_join_spare_rows(join_rows()); }

TEST_CASE("a shape that is not compiled is refused before anything is launched") {
  JoinProblem problem(make_input(1000, 1000, 1.0, fresh_seed()), JoinKind::outer);
  for (const JoinStage& stage : join_rows()) {
    if (stage.sweep.empty() && stage.variant.empty()) continue;  // a variant compiles its own shape only
    CAPTURE(stage.name);
    CAPTURE(stage.variant);
    LaunchShape bad = stage.shape;
    bad.threads = 100;
    CHECK_THROWS_AS(problem.launch(stage, bad, nullptr), std::invalid_argument);
  }
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
}

TEST_CASE("every row at the int32 limits: A + B = 2^31 - 1 rows, an outer join near 2^31 rows, where memory allows") {
  // The library row is thrust's searches, CUB's scan of int32 counts and thrust::upper_bound over
  // an int32 counting iterator: at the chapter's maxima every index and offset still fits int32,
  // and every row must be exact there.
  check_join_int32_limits(join_stages());  // the variant rows are the stage's, checked at every other size
}
