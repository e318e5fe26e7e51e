// GPU tests of chapter 04: every row of the table, at its default shape and at every shape of its
// --sweep, float and double, on the matrices where SpMV bugs live: the lecture's 4 x 4 example with
// its empty row, no rows, all rows empty, one row, one column, rectangular both ways, a row longer
// than many tiles, merge totals at a tile's edge +- 1, every generator, the 32-bit limit (where
// memory allows: a library row cuSPARSE refuses to prepare must say why, not end the run), and
// fresh seeds. y is
// poisoned first and checked against the double-precision reference within matrix.hpp's
// tolerance, and nothing may be written outside any buffer. A new stage is tested with no edit here.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "generators.hpp"
#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "host/device.hpp"
#include "host/host_memory.hpp"
#include "host/sizes.hpp"
#include "matrix.hpp"
#include "problem.hpp"
#include "spmv.hpp"

using namespace stepwise;
using namespace stepwise::spmv;

namespace {

/// Every shape a row runs at: its default and its sweep's.
template <class T>
std::vector<LaunchShape> shapes_of(const SpmvStage<T>& stage) {
  std::vector<LaunchShape> shapes = {stage.shape};
  for (const LaunchShape& shape : stage.sweep)
    if (shape != stage.shape) shapes.push_back(shape);
  return shapes;
}

/// Runs every row of the table at every shape on @p matrix and checks y each time.
template <class T>
void check_every_row(const CsrMatrix& matrix, std::uint64_t seed) {
  SpmvProblem<T> problem(matrix, seed);
  for (const SpmvStage<T>& stage : spmv_stages<T>()) {
    for (const LaunchShape& shape : shapes_of(stage)) {
      INFO(matrix.description << ", " << (sizeof(T) == 4 ? "float32" : "float64") << ", stage " << stage.name << " "
                              << describe(shape) << ", seed " << seed);
      testing::check_run(problem, stage, shape, nullptr);
    }
  }
}

void check_spec(const std::string& spec) {
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix matrix = generate_matrix(spec, seed);
  check_every_row<float>(matrix, seed);
  check_every_row<double>(matrix, seed);
}

}  // namespace

TEST_CASE("the lecture's 4 x 4 example with its empty row, every row and shape") { check_spec("lecture"); }

TEST_CASE("a matrix without rows") {
  CsrMatrix matrix;
  matrix.offsets = {0};
  matrix.cols = 3;
  matrix.description = "0 x 3";
  check_every_row<float>(matrix, fresh_seed());
  check_every_row<double>(matrix, fresh_seed());
}

TEST_CASE("all rows empty, one row, one column, rectangular") {
  for (const char* spec : {"uniform:100:0", "uniform:1x10:7", "uniform:1:1", "uniform:5x1:1", "uniform:3000x1:1",
                           "uniform:1000x30000:5", "uniform:30000x100:3"})
    check_spec(spec);
}

TEST_CASE("merge totals (rows + nonzeros) at every tile edge +- 1") {
  // Rows only (K = 0: one item a row) and one nonzero per row (two items a row), around
  // threads x items of every shape that has items (the merge-based rows' tiles among them).
  std::set<int> tiles;
  for (const SpmvStage<float>& stage : spmv_stages<float>())
    for (const LaunchShape& shape : shapes_of(stage))
      if (shape.items > 0) tiles.insert(shape.threads * shape.items);
  REQUIRE(!tiles.empty());
  for (int tile : tiles) {
    check_spec("uniform:" + std::to_string(tile - 1) + ":0");
    check_spec("uniform:" + std::to_string(tile + 1) + ":0");
    check_spec("uniform:" + std::to_string(tile / 2) + ":1");
    check_spec("uniform:" + std::to_string(tile / 2 + 1) + ":1");
    // Irregular rows (one of 40 nonzeros, the rest empty), which stage 5 gives its merge too.
    check_spec("huge-row:" + std::to_string(tile - 41) + ":0:40");
    check_spec("huge-row:" + std::to_string(tile - 39) + ":0:40");
  }
}

TEST_CASE("scattered regular rows: stage 5's merge on random columns, wide and square") {
  check_spec("uniform:20001x4194304:16");
  check_spec("uniform:3001x1000000:1");
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
    testing::check_run(problem, tuned, shape, nullptr);
  }
}

TEST_CASE("a row longer than many tiles, between short rows") {
  check_spec("huge-row:2000:3:50000");
  check_spec("huge-row:1:0:70001");
  check_spec("huge-row:5000:0:3000");
}

TEST_CASE("every generator at small sizes") {
  for (const char* spec : {"stencil5:37x41", "stencil5:1x1", "stencil27:9x10x11", "stencil27:1x1x2", "rmat:12:8",
                           "uniform:20001:16", "rmat:14:16"})
    check_spec(spec);
}

TEST_CASE("a larger banded matrix: many tiles, many carries") { check_spec("stencil27:64x64x100"); }

TEST_CASE("every row at the 32-bit limit, 2^31 - 8 nonzeros, where memory allows; a refused cuSPARSE row says why") {
  // cuSPARSE has answered CUSPARSE_STATUS_INTERNAL_ERROR for 32-bit CSR matrices just below 2^31
  // nonzeros; the chapter accepts up to 2^31 - 1. Every row must be exact here, or, for a library
  // row, refused by cuSPARSE at its preparation (then left out of a run with a note).
  MatrixSource source("uniform:89478485:24");  // 2,147,483,640 nonzeros
  REQUIRE(source.size().nonzeros == 2147483640);
  const double device = device_bytes_needed(source.size(), sizeof(float));
  const double host = host_bytes_needed(source.size(), sizeof(float), false);
  const double spare = 4.0 * (std::size_t{1} << 30);  // cuSPARSE's buffers, the tests' own copies
  if (static_cast<double>(free_device_bytes()) < device + spare ||
      static_cast<double>(available_host_bytes()) < host + spare) {
    MESSAGE("stepwise-skip: 2^31 - 8 nonzeros need ", format_bytes(device), " of device memory and ",
            format_bytes(host), " of host memory");
    return;
  }
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const CsrMatrix matrix = source.load(seed);
  SpmvProblem<float> problem(matrix, seed);
  for (const SpmvStage<float>& stage : spmv_stages<float>()) {
    INFO("stage " << stage.name);
    const std::string refusal = problem.library_refusal(stage);
    if (!refusal.empty()) {
      MESSAGE(stage.name, " refused by cuSPARSE at 2^31 - 8 nonzeros: ", refusal);
      CHECK(stage.kind == RowKind::library);
      CHECK_THROWS_AS(problem.launch(stage, stage.shape, nullptr), std::invalid_argument);
      continue;
    }
    testing::check_run(problem, stage, stage.shape, nullptr);
  }
}
