// GPU tests of chapter 04: every row of the table, at its default shape and at every shape of its
// --sweep, float and double, on the matrices where SpMV bugs live: the lecture's 4 x 4 example with
// its empty row, no rows, all rows empty, one row, one column, rectangular both ways, a row longer
// than many tiles, merge totals at a tile's edge +- 1, every generator, the 32-bit limit (where
// memory allows: a library row cuSPARSE refuses to prepare must say why, not end the run), and
// fresh seeds; the checks are spmv_checks.hpp's, which the grader of exercise 04-4 runs on the
// student's stage. y is poisoned first and checked against the double-precision reference within
// matrix.hpp's tolerance, and nothing may be written outside any buffer. With --values integer (integer values
// and x whose every partial sum is exact) every row must equal the reference exactly, on the
// chapter's huge row too, where the tolerance would admit any y; and every row whose trait says it
// is deterministic must give the same bits run after run. A new stage is tested with no edit here,
// and so is a stage's variant row (stage.hpp's with_variants): every test but the 2^31 one runs
// the variant rows too, each at its one shape.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "generators.hpp"
#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "matrix.hpp"
#include "problem.hpp"
#include "spmv.hpp"
#include "spmv_checks.hpp"

using namespace stepwise;
using namespace stepwise::spmv;
using namespace stepwise::testing;

TEST_CASE("the lecture's 4 x 4 example with its empty row, every row and shape") {
  check_spmv_spec(spmv_chapter_rows(), "lecture");
}

TEST_CASE("a matrix without rows") { check_spmv_no_rows(spmv_chapter_rows()); }

TEST_CASE("all rows empty, one row, one column, rectangular") {
  check_spmv_specs(spmv_chapter_rows(), spmv_degenerate_specs());
}

TEST_CASE("merge totals (rows + nonzeros) at every tile edge +- 1") {
  const SpmvRows rows = spmv_chapter_rows();
  REQUIRE(!spmv_tiles(rows.float32).empty());
  check_spmv_specs(rows, spmv_tile_edge_specs(rows));
}

TEST_CASE("scattered regular rows: stage 5's merge on random columns, wide and square") {
  check_spmv_specs(spmv_chapter_rows(), spmv_scattered_specs());
}

TEST_CASE("stage 5 keeps its tile boundaries: the same shape again, another shape, then the first again") {
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix matrix = generate_matrix("rmat:14:16", seed);
  SpmvProblem<float> problem(matrix, seed);
  const auto& table = spmv_stages<float>();
  const auto kept = std::find_if(table.begin(), table.end(),
                                 [](const SpmvStage<float>& stage) { return stage.traits.keeps_partitions; });
  REQUIRE(kept != table.end());
  const SpmvStage<float>& tuned = *kept;
  REQUIRE(tuned.sweep.size() > 1);
  const LaunchShape other = tuned.sweep.front() == tuned.shape ? tuned.sweep.back() : tuned.sweep.front();
  for (const LaunchShape& shape : {tuned.shape, tuned.shape, tuned.shape, other, other, tuned.shape, tuned.shape}) {
    INFO(describe(shape));
    check_run(problem, tuned, shape, nullptr);
  }
}

TEST_CASE("stage 5's kept boundaries between its variant rows: another tile size, searched every call, then back") {
  // The variant rows share the workspace's kept boundaries with their stage: a row at another tile
  // size must search again, and the row that searches on every call must leave them as they were.
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix matrix = generate_matrix("rmat:14:16", seed);
  SpmvProblem<float> problem(matrix, seed);
  std::vector<SpmvStage<float>> tuned_rows;
  const SpmvRows rows = spmv_chapter_rows();
  for (const SpmvStage<float>& stage : rows.float32)
    if (stage.traits.model == StageModel::tuned) tuned_rows.push_back(stage);
  REQUIRE(tuned_rows.size() > 2);
  const SpmvStage<float>& tuned = tuned_rows.front();
  REQUIRE(tuned.variant.empty());
  const auto other_tile = std::find_if(tuned_rows.begin(), tuned_rows.end(), [&](const SpmvStage<float>& stage) {
    return stage.shape.threads * stage.shape.items != tuned.shape.threads * tuned.shape.items;
  });
  const auto searching = std::find_if(tuned_rows.begin(), tuned_rows.end(),
                                      [](const SpmvStage<float>& stage) { return !stage.traits.keeps_partitions; });
  REQUIRE(other_tile != tuned_rows.end());
  REQUIRE(searching != tuned_rows.end());
  const std::vector<const SpmvStage<float>*> order = {&tuned,       &*other_tile, &tuned,       &*searching, &tuned,
                                                      &*other_tile, &*searching,  &*other_tile, &tuned};
  for (const SpmvStage<float>* stage : order) {
    INFO(spmv_row_name(*stage));
    check_run(problem, *stage, stage->shape, nullptr);
  }
}

TEST_CASE("a row longer than many tiles, between short rows") {
  check_spmv_specs(spmv_chapter_rows(), spmv_long_row_specs());
}

TEST_CASE("every generator at small sizes") { check_spmv_specs(spmv_chapter_rows(), spmv_generator_specs()); }

TEST_CASE("a larger banded matrix: many tiles, many carries") {
  check_spmv_spec(spmv_chapter_rows(), "stencil27:64x64x100");
}

TEST_CASE("every row at the 32-bit limit, 2^31 - 8 nonzeros, where memory allows; a refused cuSPARSE row says why") {
  check_spmv_32_bit_limit(spmv_stages<float>());
}

TEST_CASE("--values integer: every row and shape equals the exact reference on a long row, an R-MAT and a stencil") {
  const SpmvRows rows = spmv_chapter_rows();
  for (const std::string& spec : spmv_exact_specs()) {
    check_spmv_exact<float>(rows.float32, spec, true);
    check_spmv_exact<double>(rows.float64, spec, true);
  }
}

TEST_CASE("--values integer: every row equals the exact reference on the chapter's huge row, 2^24 nonzeros") {
  const SpmvRows rows = spmv_chapter_rows();
  check_spmv_exact<float>(rows.float32, kSpmvHugeRowSpec, false);
  check_spmv_exact<double>(rows.float64, kSpmvHugeRowSpec, false);
}

TEST_CASE("the same bits from run to run: asserted for the deterministic rows, printed for the others") {
  check_spmv_same_bits(spmv_chapter_rows());
}
