/// @file spmv_checks.hpp
/// The GPU checks of chapter 04's rows, which test_spmv_gpu.cpp runs on every row of the table
/// (variant rows included) and the grader of exercise 04-4 on the student's stage: at the default
/// shape and every shape of the --sweep, float and double, on the matrices where SpMV bugs live (the
/// lecture's 4 x 4 example with its empty row, no rows, all rows empty, one row, one column,
/// rectangular both ways, a row longer than many tiles, merge totals at a tile's edge +- 1, every
/// generator, the 32-bit limit where memory allows) with fresh seeds. y is poisoned first and
/// checked against the double-precision reference within matrix.hpp's tolerance, and nothing may be
/// written outside any buffer. With --values integer (integer values and x whose every partial sum
/// is exact) every row must equal the reference exactly; and every row whose trait says it is
/// deterministic must give the same bits run after run. Each check takes the rows it runs
/// (SpmvRows: one list per value type) and returns their Tally.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
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

namespace stepwise::testing {

/// The rows a check runs, one list per value type: the chapter's table, or one stage.
struct SpmvRows {
  std::vector<spmv::SpmvStage<float>> float32;
  std::vector<spmv::SpmvStage<double>> float64;
  /// The list of value type @p T.
  template <class T>
  const std::vector<spmv::SpmvStage<T>>& of() const {
    if constexpr (std::is_same_v<T, float>)
      return float32;
    else
      return float64;
  }
};

/// Every row of the chapter's table, each stage followed by its variant rows.
inline SpmvRows spmv_chapter_rows() {
  return {with_variants(spmv::spmv_stages<float>()), with_variants(spmv::spmv_stages<double>())};
}

/// A row's name in a failure message: `tuned`, or `tuned - kept partitions` for a variant row.
template <class T>
std::string spmv_row_name(const spmv::SpmvStage<T>& stage) {
  return stage.variant.empty() ? stage.name : stage.name + " - " + stage.variant;
}

/// The name of value type @p T in a message.
template <class T>
std::string spmv_type_name() {
  return sizeof(T) == 4 ? "float32" : "float64";
}

/// Every shape a row runs at: its default and its sweep's.
template <class T>
std::vector<LaunchShape> spmv_shapes_of(const spmv::SpmvStage<T>& stage) {
  std::vector<LaunchShape> shapes = {stage.shape};
  for (const LaunchShape& shape : stage.sweep)
    if (shape != stage.shape) shapes.push_back(shape);
  return shapes;
}

/// Runs every row of @p rows at every shape on @p matrix and checks y each time.
template <class T>
Tally check_spmv_rows(const std::vector<spmv::SpmvStage<T>>& rows, const spmv::CsrMatrix& matrix, std::uint64_t seed) {
  Tally tally;
  spmv::SpmvProblem<T> problem(matrix, seed);
  for (const spmv::SpmvStage<T>& stage : rows) {
    for (const LaunchShape& shape : spmv_shapes_of(stage)) {
      INFO(matrix.description << ", " << spmv_type_name<T>() << ", stage " << spmv_row_name(stage) << " "
                              << describe(shape) << ", seed " << seed);
      tally.add(check_run(problem, stage, shape, nullptr));
    }
  }
  return tally;
}

/// The matrix @p spec names (generators.hpp), drawn from a fresh seed, under every row of @p rows at
/// every shape, float and double.
inline Tally check_spmv_spec(const SpmvRows& rows, const std::string& spec) {
  const std::uint64_t seed = fresh_seed();
  const spmv::CsrMatrix matrix = spmv::generate_matrix(spec, seed);
  Tally tally;
  tally.add(check_spmv_rows<float>(rows.float32, matrix, seed));
  tally.add(check_spmv_rows<double>(rows.float64, matrix, seed));
  return tally;
}

/// Each matrix of @p specs under check_spmv_spec().
inline Tally check_spmv_specs(const SpmvRows& rows, const std::vector<std::string>& specs) {
  Tally tally;
  for (const std::string& spec : specs) tally.add(check_spmv_spec(rows, spec));
  return tally;
}

/// A matrix of 0 rows and 3 columns, float and double.
inline Tally check_spmv_no_rows(const SpmvRows& rows) {
  spmv::CsrMatrix matrix;
  matrix.offsets = {0};
  matrix.cols = 3;
  matrix.description = "0 x 3";
  Tally tally;
  tally.add(check_spmv_rows<float>(rows.float32, matrix, fresh_seed()));
  tally.add(check_spmv_rows<double>(rows.float64, matrix, fresh_seed()));
  return tally;
}

/// All rows empty, one row, one column, rectangular both ways.
inline const std::vector<std::string>& spmv_degenerate_specs() {
  static const std::vector<std::string> specs = {"uniform:100:0",      "uniform:1x10:7",   "uniform:1:1",
                                                 "uniform:5x1:1",      "uniform:3000x1:1", "uniform:1000x30000:5",
                                                 "uniform:30000x100:3"};
  return specs;
}

/// The tiles (threads x items) of every shape of @p rows that has items.
template <class T>
std::set<int> spmv_tiles(const std::vector<spmv::SpmvStage<T>>& rows) {
  std::set<int> tiles;
  for (const spmv::SpmvStage<T>& stage : rows)
    for (const LaunchShape& shape : spmv_shapes_of(stage))
      if (shape.items > 0) tiles.insert(shape.threads * shape.items);
  return tiles;
}

/// The matrices whose merge totals (rows + nonzeros) sit at every tile edge +- 1 of the shapes of
/// @p rows that have items (the merge-based rows' tiles among them): rows only (one item a row) and
/// one nonzero per row (two items a row), and irregular rows (one of 40 nonzeros, the rest empty),
/// which stage 5 gives its merge too.
inline std::vector<std::string> spmv_tile_edge_specs(const SpmvRows& rows) {
  std::vector<std::string> specs;
  for (int tile : spmv_tiles(rows.float32)) {
    specs.push_back("uniform:" + std::to_string(tile - 1) + ":0");
    specs.push_back("uniform:" + std::to_string(tile + 1) + ":0");
    specs.push_back("uniform:" + std::to_string(tile / 2) + ":1");
    specs.push_back("uniform:" + std::to_string(tile / 2 + 1) + ":1");
    specs.push_back("huge-row:" + std::to_string(tile - 41) + ":0:40");
    specs.push_back("huge-row:" + std::to_string(tile - 39) + ":0:40");
  }
  return specs;
}

/// Scattered regular rows, wide and square: stage 5's merge on random columns.
inline const std::vector<std::string>& spmv_scattered_specs() {
  static const std::vector<std::string> specs = {"uniform:20001x4194304:16", "uniform:3001x1000000:1"};
  return specs;
}

/// A row longer than many tiles, between short rows.
inline const std::vector<std::string>& spmv_long_row_specs() {
  static const std::vector<std::string> specs = {"huge-row:2000:3:50000", "huge-row:1:0:70001", "huge-row:5000:0:3000"};
  return specs;
}

/// Every generator at small sizes.
inline const std::vector<std::string>& spmv_generator_specs() {
  static const std::vector<std::string> specs = {"stencil5:37x41",  "stencil5:1x1", "stencil27:9x10x11",
                                                 "stencil27:1x1x2", "rmat:12:8",    "uniform:20001:16",
                                                 "rmat:14:16"};
  return specs;
}

/// The 32-bit limit: 2,147,483,640 nonzeros (uniform:89478485:24).
inline constexpr const char* kSpmvLimitSpec = "uniform:89478485:24";

/// Each row of @p stages (float32, default shape) at the 32-bit limit, 2^31 - 8 nonzeros, where
/// device and host memory allow; otherwise says so (stepwise-skip) and runs nothing: the Tally is
/// empty. cuSPARSE has answered CUSPARSE_STATUS_INTERNAL_ERROR for 32-bit CSR matrices just below
/// 2^31 nonzeros; the chapter accepts up to 2^31 - 1. Every row must be exact here, or, for a
/// library row, refused by cuSPARSE at its preparation (then left out of a run with a note).
inline Tally check_spmv_32_bit_limit(const std::vector<spmv::SpmvStage<float>>& stages) {
  Tally tally;
  spmv::MatrixSource source(kSpmvLimitSpec);
  REQUIRE(source.size().nonzeros == 2147483640);
  const double device = spmv::device_bytes_needed(source.size(), sizeof(float));
  const double host = spmv::host_bytes_needed(source.size(), sizeof(float), false);
  const double spare = 4.0 * (std::size_t{1} << 30);  // cuSPARSE's buffers, the tests' own copies
  if (static_cast<double>(free_device_bytes()) < device + spare ||
      static_cast<double>(available_host_bytes()) < host + spare) {
    MESSAGE("stepwise-skip: 2^31 - 8 nonzeros need ", format_bytes(device), " of device memory and ",
            format_bytes(host), " of host memory");
    return tally;
  }
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const spmv::CsrMatrix matrix = source.load(seed);
  spmv::SpmvProblem<float> problem(matrix, seed);
  for (const spmv::SpmvStage<float>& stage : stages) {
    INFO("stage " << stage.name);
    const std::string refusal = problem.library_refusal(stage);
    if (!refusal.empty()) {
      MESSAGE(stage.name, " refused by cuSPARSE at 2^31 - 8 nonzeros: ", refusal);
      const bool library = stage.kind == RowKind::library;
      CHECK(library);
      bool throws = false;
      try {
        problem.launch(stage, stage.shape, nullptr);
      } catch (const std::invalid_argument&) {
        throws = true;
      }
      CHECK_MESSAGE(throws, "a refused row must throw std::invalid_argument when launched");
      tally.add(library && throws);
      continue;
    }
    tally.add(check_run(problem, stage, stage.shape, nullptr));
  }
  return tally;
}

/// --values integer on @p spec: the matrix's values and x replaced by integers whose every partial
/// sum is exact, so every row of @p rows, at its default shape (and with @p every_shape at every
/// shape of its sweep), must give y equal to the reference element by element, whatever order it
/// sums in: the carries between threads and tiles included.
template <class T>
Tally check_spmv_exact(const std::vector<spmv::SpmvStage<T>>& rows, const std::string& spec, bool every_shape) {
  Tally tally;
  const std::uint64_t seed = fresh_seed();
  spmv::CsrMatrix matrix = spmv::generate_matrix(spec, seed);
  const std::int64_t bound = spmv::make_integer_valued(matrix, sizeof(T), seed);
  REQUIRE(bound > 0);
  spmv::SpmvProblem<T> problem(matrix, seed, bound);
  const std::vector<double>& want = problem.reference();
  for (const spmv::SpmvStage<T>& stage : rows) {
    const std::vector<LaunchShape> shapes = every_shape ? spmv_shapes_of(stage) : std::vector<LaunchShape>{stage.shape};
    for (const LaunchShape& shape : shapes) {
      INFO(matrix.description << ", " << spmv_type_name<T>() << ", stage " << spmv_row_name(stage) << " "
                              << describe(shape) << ", seed " << seed);
      const bool prepared = problem.library_refusal(stage).empty();
      CHECK(prepared);
      const bool passed = check_run(problem, stage, shape, nullptr);  // check_output: check_y, exact
      const std::vector<T> y = problem.download_y();
      REQUIRE(y.size() == want.size());
      std::size_t differ = 0;
      for (std::size_t i = 0; i < y.size(); ++i)
        if (!(static_cast<double>(y[i]) == want[i])) ++differ;
      CHECK_MESSAGE(differ == 0, differ, " of ", y.size(), " elements differ from the exact reference");
      tally.add(prepared && passed && differ == 0);
    }
  }
  return tally;
}

/// The matrices of check_spmv_exact() at every shape: a long row, an R-MAT, a stencil, the lecture's.
inline const std::vector<std::string>& spmv_exact_specs() {
  static const std::vector<std::string> specs = {"huge-row:20000:8:200000", "rmat:16:16", "stencil27:40x40x80",
                                                 "lecture"};
  return specs;
}

/// The chapter's huge row (figures/regenerate.sh's hugerow), 2^24 nonzeros: values and x +-1 in
/// float32, the only bound whose 2^24-term sums are exact; [-8, 8] in float64. Default shapes only:
/// stages 1 and 2 walk the long row with one thread.
inline constexpr const char* kSpmvHugeRowSpec = "huge-row:4194304:8:16777216";

/// check_spmv_exact() on every matrix of spmv_exact_specs() at every shape, and on the chapter's
/// huge row at the default shapes, float and double.
inline Tally check_spmv_exact_every_row(const SpmvRows& rows) {
  Tally tally;
  for (const std::string& spec : spmv_exact_specs()) {
    tally.add(check_spmv_exact<float>(rows.float32, spec, true));
    tally.add(check_spmv_exact<double>(rows.float64, spec, true));
  }
  tally.add(check_spmv_exact<float>(rows.float32, kSpmvHugeRowSpec, false));
  tally.add(check_spmv_exact<double>(rows.float64, kSpmvHugeRowSpec, false));
  return tally;
}

/// Whether @p a and @p b hold the same bits.
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(T) * a.size()) == 0;
}

/// Runs every row of @p rows at its default shape on @p spec's real values, once and then
/// kRepeats more times, and compares each repeat's y with the first bit by bit: equal for every
/// row whose deterministic trait says so; printed, never asserted either way, for the others.
template <class T>
Tally check_spmv_repeated_bits(const std::vector<spmv::SpmvStage<T>>& rows, const std::string& spec) {
  constexpr int kRepeats = 4;
  Tally tally;
  const std::uint64_t seed = fresh_seed();
  const spmv::CsrMatrix matrix = spmv::generate_matrix(spec, seed);
  spmv::SpmvProblem<T> problem(matrix, seed);
  for (const spmv::SpmvStage<T>& stage : rows) {
    INFO(matrix.description << ", " << spmv_type_name<T>() << ", stage " << spmv_row_name(stage) << ", seed " << seed);
    bool passed = check_run(problem, stage, stage.shape, nullptr);
    const std::vector<T> first = problem.download_y();
    int differing = 0;
    for (int repeat = 0; repeat < kRepeats; ++repeat) {
      passed = check_run(problem, stage, stage.shape, nullptr) && passed;  // poisoned first: a stale y cannot match
      if (!same_bits(problem.download_y(), first)) ++differing;
    }
    MESSAGE("same bits: ", spec, " ", spmv_type_name<T>(), " ", spmv_row_name(stage),
            std::string(stage.traits.deterministic ? " (deterministic)" : " (not promised)"), ": ", differing, " of ",
            kRepeats, " repeats differ from the first run");
    if (stage.traits.deterministic) {
      CHECK(differing == 0);
      passed = passed && differing == 0;
    }
    tally.add(passed);
  }
  return tally;
}

/// The matrices of check_spmv_same_bits(): a long row, an R-MAT, a stencil.
inline const std::vector<std::string>& spmv_same_bits_specs() {
  static const std::vector<std::string> specs = {"huge-row:20000:8:300000", "rmat:16:16", "stencil27:40x40x80"};
  return specs;
}

/// check_spmv_repeated_bits() on every matrix of spmv_same_bits_specs(), float and double.
inline Tally check_spmv_same_bits(const SpmvRows& rows) {
  Tally tally;
  for (const std::string& spec : spmv_same_bits_specs()) {
    tally.add(check_spmv_repeated_bits<float>(rows.float32, spec));
    tally.add(check_spmv_repeated_bits<double>(rows.float64, spec));
  }
  return tally;
}

}  // namespace stepwise::testing
