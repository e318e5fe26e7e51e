// GPU tests of chapter 04: every row of the table, at its default shape and at every shape of its
// --sweep, float and double, on the matrices where SpMV bugs live: the lecture's 4 x 4 example with
// its empty row, no rows, all rows empty, one row, one column, rectangular both ways, a row longer
// than many tiles, merge totals at a tile's edge +- 1, every generator, the 32-bit limit (where
// memory allows: a library row cuSPARSE refuses to prepare must say why, not end the run), and
// fresh seeds. y is
// poisoned first and checked against the double-precision reference within matrix.hpp's
// tolerance, and nothing may be written outside any buffer. With --values integer (integer values
// and x whose every partial sum is exact) every row must equal the reference exactly, on the
// chapter's huge row too, where the tolerance would admit any y; and every row whose trait says it
// is deterministic must give the same bits run after run. A new stage is tested with no edit here,
// and so is a stage's variant row (stage.hpp's with_variants): every test but the 2^31 one runs
// the variant rows too, each at its one shape.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
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

/// The rows of the table, each stage followed by its variant rows.
template <class T>
std::vector<SpmvStage<T>> rows_of() {
  return with_variants(spmv_stages<T>());
}

/// A row's name in a failure message: `tuned`, or `tuned - kept partitions` for a variant row.
template <class T>
std::string row_name(const SpmvStage<T>& stage) {
  return stage.variant.empty() ? stage.name : stage.name + " - " + stage.variant;
}

/// Every shape a row runs at: its default and its sweep's.
template <class T>
std::vector<LaunchShape> shapes_of(const SpmvStage<T>& stage) {
  std::vector<LaunchShape> shapes = {stage.shape};
  for (const LaunchShape& shape : stage.sweep)
    if (shape != stage.shape) shapes.push_back(shape);
  return shapes;
}

/// Runs every row of the table, variant rows included, at every shape on @p matrix and checks y
/// each time.
template <class T>
void check_every_row(const CsrMatrix& matrix, std::uint64_t seed) {
  SpmvProblem<T> problem(matrix, seed);
  for (const SpmvStage<T>& stage : rows_of<T>()) {
    for (const LaunchShape& shape : shapes_of(stage)) {
      INFO(matrix.description << ", " << (sizeof(T) == 4 ? "float32" : "float64") << ", stage " << row_name(stage)
                              << " " << describe(shape) << ", seed " << seed);
      testing::check_run(problem, stage, shape, nullptr);
    }
  }
}

/// --values integer on @p spec: the matrix's values and x replaced by integers whose every partial
/// sum is exact, so every row of the table, at its default shape (and with @p every_shape at every
/// shape of its sweep), must give y equal to the reference element by element, whatever order it
/// sums in: the carries between threads and tiles included.
template <class T>
void check_exact_every_row(const std::string& spec, bool every_shape) {
  const std::uint64_t seed = fresh_seed();
  CsrMatrix matrix = generate_matrix(spec, seed);
  const std::int64_t bound = make_integer_valued(matrix, sizeof(T), seed);
  REQUIRE(bound > 0);
  SpmvProblem<T> problem(matrix, seed, bound);
  const std::vector<double>& want = problem.reference();
  for (const SpmvStage<T>& stage : rows_of<T>()) {
    const std::vector<LaunchShape> shapes = every_shape ? shapes_of(stage) : std::vector<LaunchShape>{stage.shape};
    for (const LaunchShape& shape : shapes) {
      INFO(matrix.description << ", " << (sizeof(T) == 4 ? "float32" : "float64") << ", stage " << row_name(stage)
                              << " " << describe(shape) << ", seed " << seed);
      CHECK(problem.library_refusal(stage).empty());
      testing::check_run(problem, stage, shape, nullptr);  // check_output: check_y, exact
      const std::vector<T> y = problem.download_y();
      REQUIRE(y.size() == want.size());
      std::size_t differ = 0;
      for (std::size_t i = 0; i < y.size(); ++i)
        if (!(static_cast<double>(y[i]) == want[i])) ++differ;
      CHECK_MESSAGE(differ == 0, differ, " of ", y.size(), " elements differ from the exact reference");
    }
  }
}

/// Whether @p a and @p b hold the same bits.
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(T) * a.size()) == 0;
}

/// Runs every row of the table at its default shape on @p spec's real values, once and then
/// kRepeats more times, and compares each repeat's y with the first bit by bit: equal for every
/// row whose deterministic trait says so; printed, never asserted either way, for the others.
template <class T>
void check_repeated_bits(const std::string& spec) {
  constexpr int kRepeats = 4;
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix matrix = generate_matrix(spec, seed);
  SpmvProblem<T> problem(matrix, seed);
  for (const SpmvStage<T>& stage : rows_of<T>()) {
    INFO(matrix.description << ", " << (sizeof(T) == 4 ? "float32" : "float64") << ", stage " << row_name(stage)
                            << ", seed " << seed);
    testing::check_run(problem, stage, stage.shape, nullptr);
    const std::vector<T> first = problem.download_y();
    int differing = 0;
    for (int repeat = 0; repeat < kRepeats; ++repeat) {
      testing::check_run(problem, stage, stage.shape, nullptr);  // poisoned first: a stale y cannot match
      if (!same_bits(problem.download_y(), first)) ++differing;
    }
    MESSAGE("same bits: ", spec, " ", (sizeof(T) == 4 ? "float32" : "float64"), " ", row_name(stage),
            std::string(stage.traits.deterministic ? " (deterministic)" : " (not promised)"), ": ", differing, " of ",
            kRepeats, " repeats differ from the first run");
    if (stage.traits.deterministic) CHECK(differing == 0);
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
  for (const SpmvStage<float>& stage : rows_of<float>())
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

TEST_CASE("stage 5's kept boundaries between its variant rows: another tile size, searched every call, then back") {
  // The variant rows share the workspace's kept boundaries with their stage: a row at another tile
  // size must search again, and the row that searches on every call must leave them as they were.
  const std::uint64_t seed = fresh_seed();
  const CsrMatrix matrix = generate_matrix("rmat:14:16", seed);
  SpmvProblem<float> problem(matrix, seed);
  std::vector<SpmvStage<float>> tuned_rows;
  for (const SpmvStage<float>& stage : rows_of<float>())
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
    INFO(row_name(*stage));
    testing::check_run(problem, *stage, stage->shape, nullptr);
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

TEST_CASE("--values integer: every row and shape equals the exact reference on a long row, an R-MAT and a stencil") {
  for (const char* spec : {"huge-row:20000:8:200000", "rmat:16:16", "stencil27:40x40x80", "lecture"}) {
    check_exact_every_row<float>(spec, true);
    check_exact_every_row<double>(spec, true);
  }
}

TEST_CASE("--values integer: every row equals the exact reference on the chapter's huge row, 2^24 nonzeros") {
  // huge-row:4194304:8:16777216 (figures/regenerate.sh's hugerow): values and x +-1 in float32,
  // the only bound whose 2^24-term sums are exact; [-8, 8] in float64. Default shapes only: stages 1
  // and 2 walk the long row with one thread.
  check_exact_every_row<float>("huge-row:4194304:8:16777216", false);
  check_exact_every_row<double>("huge-row:4194304:8:16777216", false);
}

TEST_CASE("the same bits from run to run: asserted for the deterministic rows, printed for the others") {
  for (const char* spec : {"huge-row:20000:8:300000", "rmat:16:16", "stencil27:40x40x80"}) {
    check_repeated_bits<float>(spec);
    check_repeated_bits<double>(spec);
  }
}
