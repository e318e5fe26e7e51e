// CPU tests of chapter 04's host half: the CSR invariants, every generator (structure counted by
// hand, reproducibility, values exact in float), every bad --matrix spec, the Matrix Market reader
// on valid files and on every error it names (with the file and the line, in files cut into many
// parallel chunks too), the CPU reference with its float rounding and error scale, and the
// numbers --analyze prints (idle lanes, the nonzeros in stage 2's slice, work per thread, the
// merge's split and its walk item by item, as text and as JSON) on matrices small enough to count
// by hand.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "algorithm/merge_path.hpp"
#include "analysis.hpp"
#include "host/data.hpp"
#include "matrix.hpp"
#include "spmv.hpp"

using namespace stepwise;
using namespace stepwise::spmv;

namespace {

/// The stages the report's sections name, as the table's traits give them.
const AnalyzedStages& table_stages() {
  static const AnalyzedStages stages = analyzed_stages(spmv_stages<float>());
  return stages;
}

/// The message of the MatrixError @p action throws, or a note that it threw none.
template <class Action>
std::string matrix_error(Action&& action) {
  try {
    action();
  } catch (const MatrixError& error) {
    return error.what();
  }
  return "(no MatrixError thrown)";
}

/// The message of the std::invalid_argument @p action throws, or a note that it threw none.
template <class Action>
std::string invalid_argument(Action&& action) {
  try {
    action();
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "(no std::invalid_argument thrown)";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Checks that generating @p spec throws a MatrixError naming the spec and saying @p why.
void check_bad_spec(const std::string& spec, const std::string& why) {
  CAPTURE(spec);
  const std::string message = matrix_error([&] { generate_matrix(spec, 1); });
  CAPTURE(message);
  CHECK(message.rfind(spec + ": ", 0) == 0);
  CHECK(contains(message, why));
}

/// A folder of its own under the system's temporary folder, removed with everything in it.
class TemporaryFolder {
 public:
  TemporaryFolder()
      : path_(std::filesystem::temp_directory_path() / ("stepwise_spmv_test_" + std::to_string(fresh_seed()))) {
    std::filesystem::create_directories(path_);
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  /// Writes @p text to the file @p name in the folder; returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (path_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

/// Checks that reading @p text as the file @p name throws `PATH:LINE: ...why...`.
void check_bad_file(const TemporaryFolder& folder, const std::string& name, const std::string& text, int line,
                    const std::string& why) {
  const std::string path = folder.write(name, text);
  const std::string message = matrix_error([&] { read_matrix_market(path); });
  CAPTURE(name);
  CAPTURE(message);
  CHECK(message.rfind(path + ":" + std::to_string(line) + ": ", 0) == 0);
  CHECK(contains(message, why));
}

/// The (row, column) -> value map of @p matrix.
std::map<std::pair<int, int>, double> cells(const CsrMatrix& matrix) {
  std::map<std::pair<int, int>, double> map;
  for (std::int32_t row = 0; row < matrix.rows; ++row)
    for (std::int32_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j)
      map[{row, matrix.columns[j]}] = matrix.values[j];
  return map;
}

bool symmetric(const CsrMatrix& matrix) {
  const auto map = cells(matrix);
  return std::all_of(map.begin(), map.end(), [&](const auto& cell) {
    const auto mirror = map.find({cell.first.second, cell.first.first});
    return mirror != map.end() && mirror->second == cell.second;
  });
}

double row_sum(const CsrMatrix& matrix, std::int32_t row) {
  double sum = 0.0;
  for (std::int32_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j) sum += matrix.values[j];
  return sum;
}

bool same_matrix(const CsrMatrix& a, const CsrMatrix& b) {
  return a.rows == b.rows && a.cols == b.cols && a.offsets == b.offsets && a.columns == b.columns &&
         a.values == b.values;
}

/// Values uniform in [-1, 1) as the generators draw them: k / 2^23 for an integer k, exact in float.
void check_random_values(const CsrMatrix& matrix) {
  for (double value : matrix.values) {
    CHECK(value >= -1.0);
    CHECK(value < 1.0);
    CHECK(static_cast<double>(static_cast<float>(value)) == value);
    CHECK(std::ldexp(value, 23) == std::floor(std::ldexp(value, 23)));
  }
  if (matrix.nnz() >= 2)
    CHECK(std::any_of(matrix.values.begin(), matrix.values.end(), [&](double v) { return v != matrix.values[0]; }));
}

/// @p matrix in Matrix Market form, its entries in a shuffled order, values written exactly.
std::string to_matrix_market(const CsrMatrix& matrix, std::uint64_t seed) {
  std::vector<std::tuple<int, int, double>> entries;
  for (std::int32_t row = 0; row < matrix.rows; ++row)
    for (std::int32_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j)
      entries.emplace_back(row + 1, matrix.columns[j] + 1, matrix.values[j]);
  std::mt19937_64 random(seed);
  std::shuffle(entries.begin(), entries.end(), random);
  std::ostringstream text;
  text.precision(17);
  text << "%%MatrixMarket matrix coordinate real general\n% written by the test\n"
       << matrix.rows << " " << matrix.cols << " " << entries.size() << "\n";
  for (const auto& [row, column, value] : entries) text << row << " " << column << " " << value << "\n";
  return text.str();
}

/// The lecture's 4 x 4 matrix, as matrix.hpp draws it.
void check_lecture(const CsrMatrix& matrix) {
  CHECK(matrix.rows == 4);
  CHECK(matrix.cols == 4);
  CHECK(matrix.offsets == std::vector<std::int32_t>{0, 2, 2, 5, 7});
  CHECK(matrix.columns == std::vector<std::int32_t>{0, 2, 1, 2, 3, 0, 3});
  CHECK(matrix.values == std::vector<double>{3, 1, 2, 4, 1, 1, 1});
}

}  // namespace

// The CSR format and its invariants ---------------------------------------------------------------

TEST_CASE("the lecture's example: its CSR arrays, y = A x by hand, and the error scale") {
  const CsrMatrix matrix = generate_matrix("lecture", 5);
  check_lecture(matrix);
  CHECK(matrix.nnz() == 7);
  CHECK(matrix.row_length(1) == 0);
  CHECK(matrix.row_length(2) == 3);
  CHECK(matrix.description == "lecture 4x4");
  CHECK_NOTHROW(validate(matrix));
  // y0 = 3*1 + 1*3, y1 = 0 (empty row), y2 = 2*2 + 4*3 + 1*4, y3 = 1*1 + 1*4.
  std::vector<double> y, scale;
  spmv_reference<double>(matrix, {1, 2, 3, 4}, y, &scale);
  CHECK(y == std::vector<double>{6, 0, 20, 5});
  // scale_r = (len_r + 2) sum |a_rj x_j|
  CHECK(scale == std::vector<double>{4 * 6, 2 * 0, 5 * 20, 4 * 5});
  spmv_reference<float>(matrix, {1, 2, 3, 4}, y);
  CHECK(y == std::vector<double>{6, 0, 20, 5});
}

TEST_CASE("validate names each broken CSR invariant") {
  const CsrMatrix good = generate_matrix("lecture", 1);
  const auto broken = [&](auto&& breaker) {
    CsrMatrix matrix = good;
    breaker(matrix);
    return invalid_argument([&] { validate(matrix); });
  };
  CHECK(contains(broken([](CsrMatrix& m) { m.rows = -1; }), "negative size"));
  CHECK(contains(broken([](CsrMatrix& m) { m.cols = -4; }), "negative size"));
  CHECK(contains(broken([](CsrMatrix& m) { m.offsets.pop_back(); }), "4 offsets for 4 rows"));
  CHECK(contains(broken([](CsrMatrix& m) { m.values.pop_back(); }), "6 values for 7 columns"));
  CHECK(contains(broken([](CsrMatrix& m) { m.offsets[0] = 1; }), "offsets[0] = 1, want 0"));
  CHECK(contains(broken([](CsrMatrix& m) { m.offsets[2] = 1; }), "offsets[2] = 1 < offsets[1] = 2"));
  CHECK(contains(broken([](CsrMatrix& m) { m.offsets[4] = 6; }), "offsets[rows] = 6, want the nonzero count 7"));
  CHECK(contains(broken([](CsrMatrix& m) { m.columns[6] = 4; }), "row 3: column 4 out of range [0, 4)"));
  CHECK(contains(broken([](CsrMatrix& m) { m.columns[0] = -1; }), "row 0: column -1 out of range"));
  CHECK(contains(broken([](CsrMatrix& m) { m.columns[3] = 1; }), "row 2: column 1 after column 1"));
  CHECK(
      contains(broken([](CsrMatrix& m) { std::swap(m.columns[0], m.columns[1]); }), "row 0: column 0 after column 2"));
  CsrMatrix no_rows;
  no_rows.offsets = {0};
  no_rows.cols = 3;
  CHECK_NOTHROW(validate(no_rows));
  CHECK(tolerance<float>() == std::ldexp(1.0, -24));
  CHECK(tolerance<double>() == std::ldexp(1.0, -53));
}

// Generators --------------------------------------------------------------------------------------

TEST_CASE("generator specs: which names are generators, and their synopses for --help") {
  for (const char* spec :
       {"lecture", "stencil5", "stencil27:1x2x3", "uniform:10:2", "rmat:4:4", "huge-row:1:2:3", "lecture:3", "uniform"})
    CHECK_MESSAGE(is_generator_spec(spec), spec);
  for (const char* spec : {"", "bogus", "bogus:3", "matrix.mtx", "/tmp/uniform.mtx", "./lecture", "Lecture"})
    CHECK_MESSAGE(!is_generator_spec(spec), spec);
  const std::vector<std::string>& synopses = generator_synopses();
  REQUIRE(synopses.size() == 6);
  for (const char* start : {"lecture", "stencil5:NXxNY", "stencil27:NXxNYxNZ", "uniform:ROWS[xCOLS]:K",
                            "rmat:SCALE:EDGES_PER_ROW", "huge-row:ROWS:K:LONG"})
    CHECK_MESSAGE(std::any_of(synopses.begin(), synopses.end(),
                              [&](const std::string& line) { return line.rfind(start, 0) == 0; }),
                  start);
}

TEST_CASE("stencil5: the 5-point Laplacian, nonzeros counted by hand, symmetric, rows summing to 0 inside") {
  const CsrMatrix matrix = generate_matrix("stencil5:3x4", 1);
  CHECK_NOTHROW(validate(matrix));
  CHECK(matrix.rows == 12);
  CHECK(matrix.cols == 12);
  // 12 diagonal entries + 2 x (horizontal pairs 2 x 4 + vertical pairs 3 x 3) = 12 + 34.
  CHECK(matrix.nnz() == 46);
  CHECK(matrix.description == "stencil5 3x4");
  // Corners have 3 nonzeros, other border points 4, the inner points (1, 1) and (1, 2) 5.
  const std::vector<int> lengths = {3, 4, 3, 4, 5, 4, 4, 5, 4, 3, 4, 3};
  for (int row = 0; row < 12; ++row) CHECK(matrix.row_length(row) == lengths[static_cast<std::size_t>(row)]);
  // Row 4 = (x 1, y 1): neighbours 1 (y - 1), 3 (x - 1), 5 (x + 1), 7 (y + 1).
  CHECK(std::vector<std::int32_t>(matrix.columns.begin() + matrix.offsets[4],
                                  matrix.columns.begin() + matrix.offsets[5]) ==
        std::vector<std::int32_t>{1, 3, 4, 5, 7});
  CHECK(std::vector<double>(matrix.values.begin() + matrix.offsets[4], matrix.values.begin() + matrix.offsets[5]) ==
        std::vector<double>{-1, -1, 4, -1, -1});
  CHECK(symmetric(matrix));
  CHECK(row_sum(matrix, 4) == 0.0);  // the inner points
  CHECK(row_sum(matrix, 7) == 0.0);
  CHECK(row_sum(matrix, 0) == 2.0);  // a corner: 4 - 2
  const CsrMatrix one = generate_matrix("stencil5:1x1", 1);
  CHECK(one.offsets == std::vector<std::int32_t>{0, 1});
  CHECK(one.values == std::vector<double>{4});
  const CsrMatrix line = generate_matrix("stencil5:5x1", 1);  // a path: the 1-D Laplacian's pattern
  CHECK(line.nnz() == 5 + 2 * 4);
  CHECK(symmetric(line));
}

TEST_CASE("stencil27: every neighbour in the grid, 343 nonzeros on 3 x 3 x 3, symmetric, inner rows summing to 0") {
  const CsrMatrix matrix = generate_matrix("stencil27:3x3x3", 1);
  CHECK_NOTHROW(validate(matrix));
  CHECK(matrix.rows == 27);
  // Per dimension of 3 points the neighbours number 2 + 3 + 2 = 7; the grid's total is 7^3.
  CHECK(matrix.nnz() == 343);
  CHECK(matrix.description == "stencil27 3x3x3");
  // The centre (13) touches every point; the corner (0) the 8 points of its 2 x 2 x 2 cube.
  CHECK(matrix.row_length(13) == 27);
  for (int j = 0; j < 27; ++j) CHECK(matrix.columns[static_cast<std::size_t>(matrix.offsets[13] + j)] == j);
  CHECK(std::vector<std::int32_t>(matrix.columns.begin(), matrix.columns.begin() + matrix.offsets[1]) ==
        std::vector<std::int32_t>{0, 1, 3, 4, 9, 10, 12, 13});
  CHECK(matrix.values[0] == 26.0);
  CHECK(matrix.values[1] == -1.0);
  CHECK(row_sum(matrix, 13) == 0.0);  // the centre: 26 - 26
  CHECK(row_sum(matrix, 0) == 19.0);  // a corner: 26 - 7
  CHECK(symmetric(matrix));
  for (std::int32_t row = 0; row < matrix.rows; ++row) {
    const auto begin = matrix.columns.begin() + matrix.offsets[row];
    const auto diagonal = std::find(begin, matrix.columns.begin() + matrix.offsets[row + 1], row);
    REQUIRE(diagonal != matrix.columns.begin() + matrix.offsets[row + 1]);
    CHECK(matrix.values[static_cast<std::size_t>(diagonal - matrix.columns.begin())] == 26.0);
  }
  const CsrMatrix flat = generate_matrix("stencil27:1x1x2", 1);
  CHECK(flat.offsets == std::vector<std::int32_t>{0, 2, 4});
  CHECK(flat.columns == std::vector<std::int32_t>{0, 1, 0, 1});
  const CsrMatrix slab = generate_matrix("stencil27:4x5x6", 1);
  CHECK(slab.nnz() == static_cast<std::size_t>((3 * 4 - 2) * (3 * 5 - 2) * (3 * 6 - 2)));
  CHECK(symmetric(slab));
}

TEST_CASE("uniform: K distinct sorted columns in every row, values exact in float, reproducible from the seed") {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const CsrMatrix matrix = generate_matrix("uniform:10007:16", seed);
  CHECK_NOTHROW(validate(matrix));  // in range and strictly increasing: distinct and sorted
  CHECK(matrix.rows == 10007);
  CHECK(matrix.cols == 10007);
  CHECK(matrix.nnz() == 10007u * 16);
  for (std::int32_t row = 0; row < matrix.rows; ++row) CHECK(matrix.row_length(row) == 16);
  check_random_values(matrix);
  CHECK(matrix.description == "uniform 10007x10007, 16 per row");
  // The columns are spread over the whole range: 160,112 draws leave out about one column in
  // 10,007 by chance (e^-16 each), never 8.
  CHECK(std::set<std::int32_t>(matrix.columns.begin(), matrix.columns.end()).size() >= 10000);
  CHECK(same_matrix(generate_matrix("uniform:10007:16", seed), matrix));
  const CsrMatrix other = generate_matrix("uniform:10007:16", seed + 1);
  CHECK(other.columns != matrix.columns);
  CHECK(other.values != matrix.values);
}

TEST_CASE("uniform: dense rows, one row, one column, rectangular, all rows empty") {
  const CsrMatrix full = generate_matrix("uniform:200x50:50", 3);  // K = COLS: every column
  CHECK_NOTHROW(validate(full));
  for (std::int32_t row = 0; row < full.rows; ++row)
    for (int j = 0; j < 50; ++j) CHECK(full.columns[static_cast<std::size_t>(full.offsets[row] + j)] == j);
  const CsrMatrix dense = generate_matrix("uniform:300x1000:900", 4);  // dense: drawn by selection
  CHECK_NOTHROW(validate(dense));
  CHECK(dense.nnz() == 300u * 900);
  check_random_values(dense);
  const CsrMatrix one_column = generate_matrix("uniform:5x1:1", 5);
  CHECK(one_column.cols == 1);
  CHECK(one_column.offsets == std::vector<std::int32_t>{0, 1, 2, 3, 4, 5});
  CHECK(one_column.columns == std::vector<std::int32_t>(5, 0));
  const CsrMatrix one_row = generate_matrix("uniform:1x7:7", 6);
  CHECK(one_row.rows == 1);
  CHECK(one_row.columns == std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6});
  check_random_values(one_row);
  const CsrMatrix one_row_of_many = generate_matrix("uniform:1x100000:7", 6);
  CHECK_NOTHROW(validate(one_row_of_many));
  CHECK(one_row_of_many.nnz() == 7);
  const CsrMatrix wide = generate_matrix("uniform:100x30000:5", 7);
  CHECK_NOTHROW(validate(wide));
  CHECK(wide.cols == 30000);
  const CsrMatrix empty = generate_matrix("uniform:100:0", 8);
  CHECK(empty.rows == 100);
  CHECK(empty.nnz() == 0);
  CHECK(empty.offsets == std::vector<std::int32_t>(101, 0));
  CHECK_NOTHROW(validate(empty));
  CHECK(generate_matrix("uniform:4Ki:2", 9).rows == 4096);  // counts as --n writes them
  CHECK(generate_matrix("uniform:2^10x2^11:2", 9).cols == 2048);
}

TEST_CASE("rmat: a power-law graph, skewed rows, repeated edges kept once, reproducible from the seed") {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const CsrMatrix matrix = generate_matrix("rmat:14:8", seed);
  CHECK_NOTHROW(validate(matrix));
  CHECK(matrix.rows == 16384);
  CHECK(matrix.cols == 16384);
  CHECK(matrix.description == "rmat scale 14, 8 edges per row");
  // 131,072 edges drawn; the skew repeats some of them, which are kept once.
  CHECK(matrix.nnz() <= 131072u);
  CHECK(matrix.nnz() >= 100000u);
  check_random_values(matrix);
  const RowLengths lengths = row_lengths(matrix);
  CHECK(lengths.max > 20 * lengths.mean);  // a power law: the longest rows are far above the mean
  CHECK(lengths.min == 0);                 // and many vertices have no edge at all
  CHECK(lengths.p50 < lengths.mean);
  CHECK(same_matrix(generate_matrix("rmat:14:8", seed), matrix));
  const CsrMatrix other = generate_matrix("rmat:14:8", seed + 1);
  CHECK(other.columns != matrix.columns);
  // A repeated edge has one value whichever of its copies comes first: the value depends on (row, column).
  const CsrMatrix tiny = generate_matrix("rmat:0:5", seed);  // one vertex: five copies of edge (0, 0)
  CHECK(tiny.offsets == std::vector<std::int32_t>{0, 1});
  CHECK(tiny.columns == std::vector<std::int32_t>{0});
  check_random_values(generate_matrix("rmat:3:2", seed));
}

TEST_CASE("huge-row: the middle row holds LONG distinct columns, the others K") {
  const CsrMatrix matrix = generate_matrix("huge-row:1000:4:5000", 11);
  CHECK_NOTHROW(validate(matrix));
  CHECK(matrix.rows == 1000);
  CHECK(matrix.cols == 5000);             // max(ROWS, LONG)
  CHECK(matrix.row_length(500) == 5000);  // every column
  for (std::int32_t row = 0; row < 1000; ++row)
    if (row != 500) CHECK(matrix.row_length(row) == 4);
  check_random_values(matrix);
  CHECK(matrix.description == "huge-row 1000x5000, 4 per row, row 500 of 5000");
  const CsrMatrix shorter = generate_matrix("huge-row:2000:3:1500", 12);  // LONG < ROWS: a random subset
  CHECK_NOTHROW(validate(shorter));
  CHECK(shorter.cols == 2000);
  CHECK(shorter.row_length(1000) == 1500);
  CHECK(shorter.nnz() == 1999u * 3 + 1500);
  const CsrMatrix sparse_long = generate_matrix("huge-row:100000:2:5000", 12);  // a sparse subset
  CHECK_NOTHROW(validate(sparse_long));
  CHECK(sparse_long.row_length(50000) == 5000);
  const CsrMatrix alone = generate_matrix("huge-row:1:0:70001", 13);
  CHECK(alone.rows == 1);
  CHECK(alone.cols == 70001);
  CHECK(alone.offsets == std::vector<std::int32_t>{0, 70001});
  CHECK_NOTHROW(validate(alone));
  CHECK(same_matrix(generate_matrix("huge-row:2000:3:1500", 12), shorter));
  CHECK(generate_matrix("huge-row:2000:3:1500", 14).columns != shorter.columns);
}

TEST_CASE("bad generator specs: one MatrixError naming the spec and what is wrong") {
  check_bad_spec("bogus", "unknown generator 'bogus'");
  check_bad_spec("bogus:3", "known: lecture, stencil5, stencil27, uniform, rmat, huge-row");
  check_bad_spec("lecture:3", "lecture takes no arguments");
  check_bad_spec("stencil5", "expected 1 argument after the name, got 0");
  check_bad_spec("stencil5:3x4:5", "expected 1 argument after the name, got 2");
  check_bad_spec("stencil5:3", "'3' should be 2 counts separated by 'x'");
  check_bad_spec("stencil5:3x4x5", "should be 2 counts");
  check_bad_spec("stencil5:0x4", "NX = 0 is out of range [1, 2147483647]");
  check_bad_spec("stencil5:ax4", "NX: 'a' is not a valid count");
  check_bad_spec("stencil5:3x", "NY: '' is not a valid count");
  check_bad_spec("stencil5:65536x65536", "4294967296 rows is above 2^31 - 1");
  check_bad_spec("stencil27:0x3x3", "NX = 0 is out of range");
  check_bad_spec("stencil27:3x3", "should be 3 counts");
  check_bad_spec("stencil27:2048x2048x1024", "rows is above 2^31 - 1");
  check_bad_spec("stencil27:1024x1024x1024", "nonzeros is above 2^31 - 1");
  check_bad_spec("uniform:10:11", "K = 11 distinct columns per row need at least 11 columns, the matrix has 10");
  check_bad_spec("uniform:1:7", "K = 7 distinct columns per row need at least 7 columns, the matrix has 1");
  check_bad_spec("uniform:0:1", "ROWS = 0 is out of range");
  check_bad_spec("uniform:10x0:0", "COLS = 0 is out of range");
  check_bad_spec("uniform:10", "expected 2 arguments after the name, got 1");
  check_bad_spec("uniform:10:1:1", "got 3");
  check_bad_spec("uniform:10x10x10:1", "should be 1 or 2 counts");
  check_bad_spec("uniform:-1:2", "ROWS: '-1' is not a valid count");
  check_bad_spec("uniform:10:2x", "K: '2x' is not a valid count");
  check_bad_spec("uniform:10:2.5", "K: '2.5' is not a valid count");
  check_bad_spec("uniform:2147483648:1", "ROWS = 2147483648 is out of range [1, 2147483647]");
  check_bad_spec("uniform:100000:100000", "10000000000 nonzeros is above 2^31 - 1");
  check_bad_spec("rmat:31:1", "SCALE = 31 is out of range [0, 30]");
  check_bad_spec("rmat:10:0", "EDGES_PER_ROW = 0 is out of range");
  check_bad_spec("rmat:30:2", "2 x 2^30 edges is above 2^31 - 1");
  check_bad_spec("rmat:22", "expected 2 arguments");
  check_bad_spec("huge-row:10:2", "expected 3 arguments");
  check_bad_spec("huge-row:10:2:0", "LONG = 0 is out of range");
  check_bad_spec("huge-row:0:2:5", "ROWS = 0 is out of range");
  check_bad_spec("huge-row:10:11:5", "K = 11 distinct columns per row need at least 11 columns, the matrix has 10");
  check_bad_spec("huge-row:100000:30000:2000000000", "nonzeros is above 2^31 - 1");
  // The synopsis closes every spec error.
  CHECK(contains(matrix_error([] { generate_matrix("uniform:0:1", 1); }), "(uniform:ROWS[xCOLS]:K)"));
  // load_matrix reads what is not a generator as a file; a mistyped generator where no such file
  // exists says so, and names the generators.
  CHECK(matrix_error([] { load_matrix("bogus:3", 1); }) ==
        "bogus:3: unknown generator 'bogus' (known: lecture, stencil5, stencil27, uniform, rmat, huge-row), and no "
        "file of that name");
  CHECK(contains(matrix_error([] { load_matrix("unifrm:10:2", 1); }), "unknown generator 'unifrm' (known: lecture"));
  CHECK(contains(matrix_error([] { load_matrix("LECTURE", 1); }), "LECTURE: unknown generator 'LECTURE'"));
  CHECK(contains(matrix_error([] { load_matrix("missing.mtx", 1); }), "missing.mtx: cannot open the file"));
  CHECK(contains(matrix_error([] { load_matrix("/no/such/dir/m", 1); }), "/no/such/dir/m: cannot open the file"));
  CHECK(matrix_error([] { load_matrix("", 1); }) ==
        "empty: give a generator (lecture, stencil5, stencil27, uniform, rmat, huge-row) or a Matrix Market file");
}

TEST_CASE("MatrixSource: a generator's size before it is built, as generate_matrix builds it") {
  for (const char* spec : {"lecture", "stencil5:30x17", "stencil27:9x5x4", "uniform:1000:7", "uniform:300x5000:9",
                           "huge-row:1000:4:5000", "huge-row:2000:3:1500", "rmat:10:8", "uniform:50:0"}) {
    CAPTURE(spec);
    MatrixSource source(spec);
    CHECK(source.generated());
    const MatrixSize size = source.size();
    const CsrMatrix matrix = source.load(3);
    CHECK(size.rows == matrix.rows);
    CHECK(size.cols == matrix.cols);
    if (std::string(spec).rfind("rmat", 0) == 0) {
      CHECK(size.nonzeros == 8 * 1024);  // edges drawn: at least the nonzeros left once repeats are merged
      CHECK(static_cast<std::int64_t>(matrix.nnz()) <= size.nonzeros);
      CHECK(size.build_bytes == doctest::Approx(16.0 * 8 * 1024 + 8.0 * 1024));
    } else {
      CHECK(size.nonzeros == static_cast<std::int64_t>(matrix.nnz()));
      CHECK(size.build_bytes == 0.0);
    }
    CHECK(same_matrix(matrix, generate_matrix(spec, 3)));
  }
  // The spec's errors come when it is opened, before anything is built.
  CHECK(contains(matrix_error([] { MatrixSource("uniform:10:11"); }), "K = 11 distinct columns per row"));
  CHECK(contains(matrix_error([] { MatrixSource("stencil27:1024x1024x1024"); }), "nonzeros is above 2^31 - 1"));
  CHECK(contains(matrix_error([] { MatrixSource("rmat:30:2"); }), "edges is above 2^31 - 1"));
  CHECK(contains(matrix_error([] { MatrixSource("lecture:3"); }), "lecture takes no arguments"));
  // huge-row's columns are max(ROWS, LONG): said in a note when LONG is above ROWS, not silently.
  CHECK(MatrixSource("huge-row:10:2:100").size().notes ==
        std::vector<std::string>{"huge-row:10:2:100: LONG = 100 is above ROWS = 10, so the matrix has 100 columns "
                                 "(max(ROWS, LONG): the long row's columns are distinct)"});
  CHECK(MatrixSource("huge-row:100:2:10").size().notes.empty());
}

TEST_CASE("--n: the default matrix's kind, X x X x 2X, at the nonzero count nearest n") {
  const auto nonzeros = [](std::int64_t x) { return (3 * x - 2) * (3 * x - 2) * (6 * x - 2); };
  CHECK(scaled_default_matrix(111777784) == "stencil27:128x128x256");  // the default matrix
  CHECK(scaled_default_matrix(1) == "stencil27:1x1x2");
  CHECK(scaled_default_matrix(65536) == "stencil27:11x11x22");  // 61,504 nonzeros; 12 x 12 x 24 has 80,104
  CHECK(scaled_default_matrix(std::uint64_t{1} << 30) == "stencil27:271x271x542");
  CHECK(scaled_default_matrix(2147483647) == "stencil27:341x341x682");  // 342 would pass 2^31 - 1
  for (std::uint64_t n : {std::uint64_t{2}, std::uint64_t{100}, std::uint64_t{4099}, std::uint64_t{1} << 20,
                          std::uint64_t{123456789}, std::uint64_t{2000000000}}) {
    CAPTURE(n);
    const std::string spec = scaled_default_matrix(n);
    const MatrixSize size = MatrixSource(spec).size();
    std::int64_t x = 0;
    CHECK(std::sscanf(spec.c_str(), "stencil27:%ldx", &x) == 1);
    CHECK(spec == "stencil27:" + std::to_string(x) + "x" + std::to_string(x) + "x" + std::to_string(2 * x));
    CHECK(size.nonzeros == nonzeros(x));
    const auto distance = [&](std::int64_t count) { return std::abs(count - static_cast<std::int64_t>(n)); };
    if (x > 1) CHECK(distance(nonzeros(x)) <= distance(nonzeros(x - 1)));
    if (nonzeros(x + 1) <= 2147483647) CHECK(distance(nonzeros(x)) <= distance(nonzeros(x + 1)));
  }
  CHECK(contains(matrix_error([] { scaled_default_matrix(0); }), "from 1 to 2^31 - 1"));
  CHECK(contains(matrix_error([] { scaled_default_matrix(std::uint64_t{1} << 31); }), "2147483648 nonzeros"));
}

TEST_CASE("Matrix Market: memory goes by what a file holds, never by what its size line declares") {
  const TemporaryFolder folder;
  // The 60-byte file: 2^31 - 1 rows and columns, one entry. Refused at its size line, from
  // its header alone, before any row is allocated.
  const std::string huge =
      folder.write("huge.mtx", "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 1\n1 1 1\n");
  const std::string message = matrix_error([&] { MatrixSource source(huge); });
  CAPTURE(message);
  CHECK(message.rfind(huge + ":2: 2147483647 rows in a file whose 76 bytes hold at most 1 entries", 0) == 0);
  CHECK(matrix_error([&] { read_matrix_market(huge); }) == message);
  const std::string wide =
      folder.write("wide.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 20000000 2\n1 1\n2 7\n");
  CHECK(contains(matrix_error([&] { read_matrix_market(wide); }), ":2: 20000000 columns in a file whose"));
  // Up to 2^24 rows beyond the entries are fine: a mostly empty matrix, read as declared.
  const std::string sparse = folder.write(
      "sparse.mtx", "%%MatrixMarket matrix coordinate pattern general\n% one entry\n16777216 16777216 1\n9 9\n");
  MatrixSource source(sparse);
  CHECK_FALSE(source.generated());
  CHECK(source.size().rows == 16777216);
  CHECK(source.size().cols == 16777216);
  CHECK(source.size().nonzeros == 1);
  const CsrMatrix read = source.load(1);
  CHECK(read.rows == 16777216);
  CHECK(read.nnz() == 1u);
  CHECK(read.row_length(8) == 1);
  // A size line may declare more entries than the file holds: the size counts only those it can
  // hold (memory goes by what is read), and reading says how many it found.
  const std::string short_file =
      folder.write("short.mtx", "%%MatrixMarket matrix coordinate real symmetric\n100000 100000 2000000000\n2 1 1.5\n");
  CHECK(MatrixSource(short_file).size().nonzeros == 2 * 1);  // (8 bytes + 1) / 6 entries, mirrored
  CHECK(contains(matrix_error([&] { read_matrix_market(short_file); }), "the file ends after 1 entries"));
}

TEST_CASE("Matrix Market: a file that is not regular is read with a limit, and /dev/zero is refused at once") {
  if (!std::filesystem::exists("/dev/zero")) return;
  CHECK(matrix_error([] { read_matrix_market("/dev/zero"); }) ==
        "/dev/zero:1: not a Matrix Market file: the first line must start with %%MatrixMarket");
  CHECK(matrix_error([] { MatrixSource source("/dev/zero"); }) ==
        "/dev/zero:1: not a Matrix Market file: the first line must start with %%MatrixMarket");
  // A pipe holding a good file: read whole when opened (it cannot be read twice), then parsed.
  const TemporaryFolder folder;
  const std::string fifo = folder.path() + "/pipe.mtx";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::string text = "%%MatrixMarket matrix coordinate real general\n4 4 3\n1 1 3\n3 2 2\n4 4 1\n";
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << text; });
  MatrixSource source(fifo);
  writer.join();
  CHECK(source.size().rows == 4);
  CHECK(source.size().nonzeros == 3);
  const CsrMatrix matrix = source.load(1);
  CHECK(matrix.offsets == std::vector<std::int32_t>{0, 1, 1, 2, 3});
  CHECK(matrix.values == std::vector<double>{3, 2, 1});
}

TEST_CASE("host_bytes_needed: building the matrix, the matrix, then the run's vectors and reference") {
  MatrixSize size;
  size.rows = 1000;
  size.cols = 2000;
  size.nonzeros = 30000;
  const double matrix = 12.0 * 30000 + 4.0 * 1001;
  const double run_float = 16.0 * 2000 + 4.0 * 30000 + 24.0 * 1000 + 4.0 * 1000;
  CHECK(host_bytes_needed(size, 4, false) == doctest::Approx(matrix + run_float));
  CHECK(host_bytes_needed(size, 8, false) == doctest::Approx(matrix + run_float + 4.0 * 30000 + 4.0 * 1000));
  CHECK(host_bytes_needed(size, 4, true) == doctest::Approx(matrix + 4.0 * 1000));
  size.build_bytes = 1e9;  // building dominates
  CHECK(host_bytes_needed(size, 4, false) == doctest::Approx(matrix + 1e9));
  CHECK(host_bytes_needed(size, 4, true) == doctest::Approx(matrix + 1e9));
  // A file's build: its text, its entries twice (16 bytes each), the rows' counts.
  const TemporaryFolder folder;
  const std::string text = "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 2 1\n";
  const MatrixSize file = MatrixSource(folder.write("two.mtx", text)).size();
  CHECK(file.build_bytes == doctest::Approx(static_cast<double>(text.size()) + 2.0 * 16 * 2 + 4.0 * 3));
}

TEST_CASE("make_x: values from -1 to 1 exact in float, reproducible, never all equal") {
  const std::vector<double> x = make_x(100003, 21);
  REQUIRE(x.size() == 100003);
  CsrMatrix as_values;
  as_values.values = x;
  check_random_values(as_values);
  CHECK(make_x(100003, 21) == x);
  CHECK(make_x(100003, 22) != x);
  CHECK(make_x(0, 1).empty());
  CHECK(make_x(1, 1).size() == 1);
  const std::vector<double> two = make_x(2, 3);
  CHECK(two[0] != two[1]);
}

// The Matrix Market reader ------------------------------------------------------------------------

TEST_CASE("Matrix Market: general, integer and pattern files, comments, blank lines, CRLF, any case") {
  const TemporaryFolder folder;
  const std::string lecture_text =
      "%%MatrixMarket matrix coordinate real general\n"
      "% The lecture's 4 x 4 example\n"
      "4 4 7\n1 1 3\n1 3 1\n3 2 2\n3 3 4\n3 4 1\n4 1 1\n4 4 1\n";
  const CsrMatrix lecture = read_matrix_market(folder.write("lecture.mtx", lecture_text));
  check_lecture(lecture);
  CHECK(lecture.description == "lecture.mtx (real, general)");

  // Entries out of order, comments and blank lines anywhere after the banner, tabs, CRLF, no
  // final line end, the banner's words in any case, signs and exponents.
  const CsrMatrix messy = read_matrix_market(folder.write(
      "messy.mtx",
      "%%MatrixMarket MATRIX Coordinate REAL General\r\n%\r\n\r\n% a comment\r\n  4\t4  7 \r\n\r\n4 4 1\r\n"
      "% between entries\r\n3 4 +1\r\n1 3 0.1e1\r\n   \r\n4 1 1.0\r\n3 3 4\r\n3 2 2e0\r\n1 1 3.000"));
  check_lecture(messy);

  const CsrMatrix integers = read_matrix_market(
      folder.write("integers.mtx", "%%MatrixMarket matrix coordinate integer general\n2 3 3\n1 1 5\n2 3 -7\n1 2 12\n"));
  CHECK(integers.offsets == std::vector<std::int32_t>{0, 2, 3});
  CHECK(integers.columns == std::vector<std::int32_t>{0, 1, 2});
  CHECK(integers.values == std::vector<double>{5, 12, -7});
  CHECK(integers.description == "integers.mtx (integer, general)");

  const CsrMatrix pattern = read_matrix_market(
      folder.write("pattern.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n3 1\n1 2\n"));
  CHECK(pattern.offsets == std::vector<std::int32_t>{0, 1, 1, 2});
  CHECK(pattern.columns == std::vector<std::int32_t>{1, 0});
  CHECK(pattern.values == std::vector<double>{kPatternValue, kPatternValue});
  CHECK(kPatternValue == 1.0);

  const CsrMatrix values = read_matrix_market(folder.write(
      "values.mtx",
      "%%MatrixMarket matrix coordinate real general\n1 5 5\n1 1 -.5\n1 2 1E-3\n1 3 -0\n1 4 +2.5\n1 5 7\n"));
  CHECK(values.values == std::vector<double>{-0.5, 1e-3, 0.0, 2.5, 7.0});

  const CsrMatrix rectangular_empty =
      read_matrix_market(folder.write("empty.mtx", "%%MatrixMarket matrix coordinate real general\n3 4 0\n"));
  CHECK(rectangular_empty.rows == 3);
  CHECK(rectangular_empty.cols == 4);
  CHECK(rectangular_empty.offsets == std::vector<std::int32_t>(4, 0));
  const CsrMatrix nothing =
      read_matrix_market(folder.write("nothing.mtx", "%%MatrixMarket matrix coordinate pattern general\n0 0 0"));
  CHECK(nothing.rows == 0);
  CHECK(nothing.offsets == std::vector<std::int32_t>{0});
}

TEST_CASE("Matrix Market: symmetric files mirrored (diagonal once), skew-symmetric negated, duplicates summed") {
  const TemporaryFolder folder;
  const CsrMatrix symmetric_matrix = read_matrix_market(folder.write(
      "symmetric.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2\n2 1 -1\n3 2 0.5\n3 3 4\n"));
  CHECK(symmetric_matrix.offsets == std::vector<std::int32_t>{0, 2, 4, 6});
  CHECK(symmetric_matrix.columns == std::vector<std::int32_t>{0, 1, 0, 2, 1, 2});
  CHECK(symmetric_matrix.values == std::vector<double>{2, -1, -1, 0.5, 0.5, 4});
  CHECK(symmetric_matrix.description == "symmetric.mtx (real, symmetric, expanded)");

  const CsrMatrix path = read_matrix_market(
      folder.write("path.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n5 5 5\n1 1\n2 1\n3 2\n4 3\n5 4\n"));
  CHECK(path.nnz() == 9);  // the self loop once, four edges twice
  CHECK(path.offsets == std::vector<std::int32_t>{0, 2, 4, 6, 8, 9});
  CHECK(path.columns == std::vector<std::int32_t>{0, 1, 0, 2, 1, 3, 2, 4, 3});
  CHECK(symmetric(path));

  const CsrMatrix skew = read_matrix_market(
      folder.write("skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1.5\n3 1 -2\n"));
  CHECK(skew.offsets == std::vector<std::int32_t>{0, 2, 3, 4});
  CHECK(skew.columns == std::vector<std::int32_t>{1, 2, 0, 0});
  CHECK(skew.values == std::vector<double>{-1.5, 2, 1.5, -2});
  CHECK(skew.description == "skew.mtx (real, skew-symmetric, expanded)");

  const CsrMatrix duplicates = read_matrix_market(folder.write(
      "duplicates.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 1\n2 2 3\n1 1 0.5\n1 1 0.25\n"));
  CHECK(duplicates.offsets == std::vector<std::int32_t>{0, 1, 2});
  CHECK(duplicates.values == std::vector<double>{1.75, 3});
  CHECK(duplicates.description == "duplicates.mtx (real, general, 2 duplicates summed)");
  // A symmetric file's repeated lower entry is summed, and so is its mirror.
  const CsrMatrix repeated = read_matrix_market(
      folder.write("repeated.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n2 1 3\n2 1 4\n"));
  CHECK(repeated.values == std::vector<double>{7, 7});
}

TEST_CASE("Matrix Market: a file of many chunks reads back the matrix that wrote it, entries in any order") {
  const TemporaryFolder folder;
  // About 9 MiB of entry lines: several chunks for the threads, rows split between them.
  const CsrMatrix original = generate_matrix("uniform:30011x20011:12", fresh_seed());
  const std::string path = folder.write("round_trip.mtx", to_matrix_market(original, 7));
  REQUIRE(std::filesystem::file_size(path) > (std::uintmax_t{2} << 22));
  const CsrMatrix read = read_matrix_market(path);
  CHECK_NOTHROW(validate(read));
  CHECK(same_matrix(read, original));
  CHECK(read.description == "round_trip.mtx (real, general)");
}

TEST_CASE("Matrix Market: every error names the file and the line") {
  const TemporaryFolder folder;
  const std::string general = "%%MatrixMarket matrix coordinate real general\n";
  const std::string missing = folder.path() + "/missing.mtx";
  const std::string not_found = matrix_error([&] { read_matrix_market(missing); });
  CHECK(not_found == missing + ": cannot open the file: No such file or directory");
  CHECK(matrix_error([&] { read_matrix_market(folder.path()); }) ==
        folder.path() + ": cannot read the file: it is a directory");

  check_bad_file(folder, "empty.mtx", "", 1, "empty file");
  check_bad_file(folder, "banner.mtx", "%MatrixMarket matrix coordinate real general\n1 1 0\n", 1,
                 "not a Matrix Market file");
  check_bad_file(folder, "plain.mtx", "1 1 1\n1 1 1\n", 1, "the first line must start with %%MatrixMarket");
  check_bad_file(folder, "array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1,
                 "array (dense) format is not supported");
  check_bad_file(folder, "complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1,
                 "complex values are not supported");
  check_bad_file(folder, "hermitian.mtx", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", 1,
                 "hermitian symmetry is not supported");
  check_bad_file(folder, "vector.mtx", "%%MatrixMarket vector coordinate real general\n", 1,
                 "object 'vector' is not supported");
  check_bad_file(folder, "format.mtx", "%%MatrixMarket matrix sparse real general\n", 1, "unknown format 'sparse'");
  check_bad_file(folder, "field.mtx", "%%MatrixMarket matrix coordinate quaternion general\n", 1,
                 "unknown field 'quaternion'");
  check_bad_file(folder, "symmetry.mtx", "%%MatrixMarket matrix coordinate real upper\n", 1,
                 "unknown symmetry 'upper'");
  check_bad_file(folder, "short_banner.mtx", "%%MatrixMarket matrix coordinate real\n", 1, "incomplete banner");
  check_bad_file(folder, "long_banner.mtx", "%%MatrixMarket matrix coordinate real general extra\n", 1,
                 "unexpected 'extra' after the banner's symmetry");

  check_bad_file(folder, "no_size.mtx", general + "% only a comment\n\n", 3, "no size line");
  check_bad_file(folder, "size_two.mtx", general + "% c\n3 3\n", 3, "bad size line: expected ROWS COLS ENTRIES");
  check_bad_file(folder, "size_word.mtx", general + "3 x 3\n", 2, "bad size line");
  check_bad_file(folder, "size_negative.mtx", general + "-1 3 2\n", 2, "bad size line");
  check_bad_file(folder, "size_four.mtx", general + "3 3 2 7\n", 2, "unexpected '7' after ROWS COLS ENTRIES");
  check_bad_file(folder, "size_fit.mtx", general + "2 2 5\n", 2, "5 entries do not fit a 2 x 2 matrix");
  check_bad_file(folder, "size_rows.mtx", general + "2147483648 1 0\n", 2, "2147483648 rows is above 2^31 - 1");
  check_bad_file(folder, "size_cols.mtx", general + "1 2147483648 0\n", 2, "2147483648 columns is above 2^31 - 1");
  check_bad_file(folder, "size_entries.mtx", general + "3 3 2147483648\n", 2, "2147483648 entries is above 2^31 - 1");
  check_bad_file(folder, "size_huge.mtx", general + "99999999999999999999 1 0\n", 2, "bad size line");
  check_bad_file(folder, "not_square.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n2 1 1\n", 2,
                 "a symmetric matrix must be square, not 2 x 3");

  const std::string head = general + "% a 3 x 3 matrix\n3 3 2\n";  // entries start on line 4
  check_bad_file(folder, "row_zero.mtx", head + "0 1 2.0\n1 1 1\n", 4, "row index 0 out of range [1, 3]");
  check_bad_file(folder, "row_big.mtx", head + "1 1 1\n4 1 2.0\n", 5, "row index 4 out of range [1, 3]");
  check_bad_file(folder, "row_negative.mtx", head + "-2 1 2.0\n1 1 1\n", 4, "row index -2 out of range");
  check_bad_file(folder, "column_big.mtx", head + "1 4 1.0\n1 1 1\n", 4, "column index 4 out of range [1, 3]");
  check_bad_file(folder, "row_float.mtx", head + "1.5 1 2\n1 1 1\n", 4, "row index '1.5' is not an integer");
  check_bad_file(folder, "row_word.mtx", head + "a 1 2\n1 1 1\n", 4, "row index 'a' is not an integer");
  check_bad_file(folder, "index_huge.mtx", head + "1 99999999999999999999 2\n1 1 1\n", 4,
                 "column index 99999999999999999999 out of range");
  check_bad_file(folder, "no_column.mtx", head + "1 1 1\n2\n", 5, "missing column index");
  check_bad_file(folder, "value_word.mtx", head + "1 1 abc\n1 2 1\n", 4, "value 'abc' is not a number");
  check_bad_file(folder, "value_tail.mtx", head + "1 1 1.5x\n1 2 1\n", 4, "value '1.5x' is not a number");
  check_bad_file(folder, "value_nan.mtx", head + "1 1 nan\n1 2 1\n", 4, "value nan is not a finite number");
  check_bad_file(folder, "value_inf.mtx", head + "1 1 -inf\n1 2 1\n", 4, "value -inf is not a finite number");
  check_bad_file(folder, "value_huge.mtx", head + "1 1 1e999\n1 2 1\n", 4, "value 1e999 is out of the range of double");
  check_bad_file(folder, "value_missing.mtx", head + "1 1 1\n1 2\n", 5, "missing value (the field is real)");
  check_bad_file(folder, "extra.mtx", head + "1 1 2.0 7\n1 2 1\n", 4, "unexpected '7' after the entry");
  check_bad_file(folder, "integer_float.mtx", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 1.5\n", 3,
                 "value '1.5' is not an integer");
  check_bad_file(folder, "integer_missing.mtx", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1\n", 3,
                 "missing value (the field is integer)");
  check_bad_file(folder, "pattern_value.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n", 3,
                 "unexpected '1' after the entry (a pattern file has no values)");
  check_bad_file(folder, "upper.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 1\n1 2 3\n", 4,
                 "entry (1, 2) above the diagonal in a symmetric file: only the lower triangle is stored");
  check_bad_file(folder, "skew_diagonal.mtx",
                 "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 3\n", 4,
                 "diagonal entry (2, 2) in a skew-symmetric file");
  check_bad_file(folder, "too_few.mtx", head + "1 1 1\n% the end\n\n", 6,
                 "the file ends after 1 entries, the size line announces 2");
  check_bad_file(folder, "none.mtx", general + "3 3 2", 2, "the file ends after 0 entries, the size line announces 2");
  check_bad_file(folder, "too_many.mtx", head + "1 1 1\n2 2 2\n\n3 3 3\n", 7,
                 "more entries than the 2 the size line announces");
  check_bad_file(folder, "crlf.mtx", "%%MatrixMarket matrix coordinate real general\r\n2 2 1\r\n1 3 1\r\n", 3,
                 "column index 3 out of range [1, 2]");
}

TEST_CASE("Matrix Market: an error deep in a file of many chunks names its line, and the first error wins") {
  const TemporaryFolder folder;
  const CsrMatrix original = generate_matrix("uniform:25000:10", 3);  // 250,000 entries, about 7 MiB
  const std::string text = to_matrix_market(original, 5);
  // The entries start on line 4; break the one on line 200,000, then also one on line 230,000.
  const auto line_start = [&](const std::string& in, int line) {
    std::size_t at = 0;
    for (int l = 1; l < line; ++l) at = in.find('\n', at) + 1;
    return at;
  };
  std::string broken = text;
  broken.insert(line_start(broken, 200000), "1 1 x\n");  // an extra, bad line 200,000
  check_bad_file(folder, "deep.mtx", broken, 200000, "value 'x' is not a number");
  std::string twice = broken;
  twice.insert(line_start(twice, 230000), "0 1 1\n");
  check_bad_file(folder, "deep_twice.mtx", twice, 200000, "value 'x' is not a number");
  // One entry too many at the end: named at its own line, 250,004 (after 250,000 entries from line 4).
  check_bad_file(folder, "deep_extra.mtx", text + "1 1 1\n", 250004, "more entries than the 250000");
  // One entry too few: the file's last line.
  std::string shorter = text.substr(0, text.size() - 1);
  shorter = shorter.substr(0, shorter.rfind('\n') + 1);
  check_bad_file(folder, "deep_short.mtx", shorter, 250002, "the file ends after 249999 entries");
}

// The CPU reference -------------------------------------------------------------------------------

TEST_CASE("spmv_reference: values and x rounded to the element type first, summed in double, and the scale") {
  CsrMatrix matrix;
  matrix.rows = 2;
  matrix.cols = 3;
  matrix.offsets = {0, 2, 3};
  matrix.columns = {0, 2, 1};
  matrix.values = {0.1, 1.0 / 3.0, -2.5};
  const std::vector<double> x = {0.1, 0.7, 3.0};
  std::vector<double> y, scale;
  spmv_reference<double>(matrix, x, y, &scale);
  CHECK(y[0] == 0.1 * 0.1 + (1.0 / 3.0) * 3.0);
  CHECK(y[1] == -2.5 * 0.7);
  CHECK(scale[0] == 4 * (0.1 * 0.1 + (1.0 / 3.0) * 3.0));
  CHECK(scale[1] == 3 * 2.5 * 0.7);
  spmv_reference<float>(matrix, x, y, &scale);
  const auto f = [](double v) { return static_cast<double>(static_cast<float>(v)); };
  CHECK(y[0] == f(0.1) * f(0.1) + f(1.0 / 3.0) * 3.0);
  CHECK(y[0] != 0.1 * 0.1 + (1.0 / 3.0) * 3.0);  // the rounding to float shows
  CHECK(y[1] == -2.5 * f(0.7));
  CHECK(scale[1] == 3 * 2.5 * f(0.7));
  CHECK(contains(invalid_argument([&] {
                   spmv_reference<float>(matrix, {1.0, 2.0}, y);
                 }),
                 "x has 2 values for 3 columns"));
  // A matrix without rows: empty y.
  CsrMatrix no_rows;
  no_rows.offsets = {0};
  no_rows.cols = 2;
  spmv_reference<double>(no_rows, {1.0, 2.0}, y, &scale);
  CHECK(y.empty());
  CHECK(scale.empty());
}

TEST_CASE("spmv_reference on many row chunks is the plain serial loop") {
  const CsrMatrix matrix = generate_matrix("huge-row:30000:7:40000", 9);
  const std::vector<double> x = make_x(static_cast<std::size_t>(matrix.cols), 10);
  std::vector<double> y, scale;
  spmv_reference<double>(matrix, x, y, &scale);
  REQUIRE(y.size() == 30000);
  for (std::int32_t row = 0; row < matrix.rows; ++row) {
    double sum = 0.0, magnitude = 0.0;
    for (std::int32_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j) {
      sum += matrix.values[j] * x[static_cast<std::size_t>(matrix.columns[j])];
      magnitude += std::abs(matrix.values[j] * x[static_cast<std::size_t>(matrix.columns[j])]);
    }
    CHECK(y[static_cast<std::size_t>(row)] == sum);
    CHECK(scale[static_cast<std::size_t>(row)] == (matrix.row_length(row) + 2) * magnitude);
  }
}

// --analyze ---------------------------------------------------------------------------------------

TEST_CASE("vector_lanes_for: the smallest power of two from 2 to 32 at or above the mean row length") {
  CHECK(vector_lanes_for(0.0) == 2);
  CHECK(vector_lanes_for(1.0) == 2);
  CHECK(vector_lanes_for(2.0) == 2);
  CHECK(vector_lanes_for(2.01) == 4);
  CHECK(vector_lanes_for(4.0) == 4);
  CHECK(vector_lanes_for(4.5) == 8);
  CHECK(vector_lanes_for(9.0) == 16);
  CHECK(vector_lanes_for(16.0) == 16);
  CHECK(vector_lanes_for(16.5) == 32);
  CHECK(vector_lanes_for(26.65) == 32);
  CHECK(vector_lanes_for(1000.0) == 32);
}

TEST_CASE("near_diagonal_share and columns_are_banded: stage 5's second question, counted by hand") {
  CHECK(near_diagonal_share(generate_matrix("lecture", 1)) == 1.0);        // 4 columns: all near
  CHECK(near_diagonal_share(generate_matrix("uniform:100:0", 1)) == 1.0);  // no nonzeros
  CHECK(near_diagonal_share(generate_matrix("stencil27:8x8x8", 1)) == 1.0);

  CsrMatrix wide;  // 2 x 200,000: row 0's diagonal is column 0, row 1's column 100,000
  wide.rows = 2;
  wide.cols = 200000;
  wide.offsets = {0, 3, 6};
  wide.columns = {0, 32768, 32769, 67231, 67232, 132768};  // near: 0, 32768 | 67232, 132768
  wide.values.assign(6, 1.0);
  validate(wide);
  CHECK(near_diagonal_share(wide) == doctest::Approx(4.0 / 6.0));

  // Random columns over 4 Mi: about 2 x 32,768 / 4 Mi of them are near.
  const double scattered = near_diagonal_share(generate_matrix("uniform:4194304x4194304:1", 3));
  CHECK(scattered > 0.01);
  CHECK(scattered < 0.02);
  CHECK_FALSE(columns_are_banded(scattered));
  CHECK(columns_are_banded(0.9));
  CHECK_FALSE(columns_are_banded(0.8999));
  CHECK(columns_are_banded(1.0));
}

TEST_CASE("analysis of the lecture's example, counted by hand") {
  const CsrMatrix lecture = generate_matrix("lecture", 1);
  const RowLengths lengths = row_lengths(lecture);  // 2, 0, 3, 2
  CHECK(lengths.rows == 4);
  CHECK(lengths.nonzeros == 7);
  CHECK(lengths.min == 0);
  CHECK(lengths.max == 3);
  CHECK(lengths.mean == 1.75);
  CHECK(lengths.p50 == 2);
  CHECK(lengths.p90 == 3);
  CHECK(lengths.p99 == 3);
  CHECK(lengths.p999 == 3);
  CHECK(lengths.buckets == std::vector<std::int64_t>{1, 0, 3});  // empty, 1, 2-3

  // Scalar: one warp, 3 steps, 32 x 3 lane-steps for 7 nonzeros.
  const WarpWork scalar = warp_work(lecture, 1);
  CHECK(scalar.warps == 1);
  CHECK(scalar.max_warp_steps == 3);
  CHECK(scalar.slowest_warps == 1);
  CHECK(scalar.mean_warp_steps == 3.0);
  CHECK(scalar.idle_in_groups == 0.0);
  CHECK(scalar.idle_in_warps == doctest::Approx(1.0 - 7.0 / 96.0));
  CHECK(scalar.worst_warp_idle == doctest::Approx(1.0 - 7.0 / 96.0));
  CHECK(scalar.busiest_over_average == doctest::Approx(3.0 / 1.75));

  // Vector, 2 lanes: rows take 1, 1 (empty), 2, 1 steps; the groups' 10 lane-steps, the warp's 2 x 32.
  const WarpWork pairs = warp_work(lecture, 2);
  CHECK(pairs.warps == 1);
  CHECK(pairs.idle_in_groups == doctest::Approx(1.0 - 7.0 / 10.0));
  CHECK(pairs.idle_in_warps == doctest::Approx(1.0 - 7.0 / 64.0));
  CHECK(pairs.max_warp_steps == 2);
  CHECK(pairs.busiest_over_average == doctest::Approx(2.0 / 1.25));

  // A warp per row: 4 warps of one step each.
  const WarpWork whole = warp_work(lecture, 32);
  CHECK(whole.warps == 4);
  CHECK(whole.idle_in_groups == doctest::Approx(1.0 - 7.0 / 128.0));
  CHECK(whole.idle_in_warps == doctest::Approx(1.0 - 7.0 / 128.0));
  CHECK(whole.mean_warp_steps == 1.0);
  CHECK(whole.slowest_warps == 4);
  CHECK(whole.busiest_over_average == 1.0);
  CHECK(contains(invalid_argument([&] { warp_work(lecture, 3); }), "lanes per row must be 1, 2, 4, 8, 16 or 32"));

  // The merge: items nz0 nz1 END0 END1 nz2 nz3 nz4 | END2 nz5 nz6 END3, 7 per thread.
  const BalancedWork merge = balanced_work(lecture, 128, 7);
  CHECK(merge.merge_items == 11);
  CHECK(merge.threads == 2);
  CHECK(merge.tiles == 1);
  CHECK(merge.min_thread_nonzeros == 2);
  CHECK(merge.max_thread_nonzeros == 5);
  CHECK(merge.mean_thread_nonzeros == 3.5);
  CHECK(merge.rows_split_between_threads == 1);  // row 2: nz2-nz4 in thread 0, END2 in thread 1
  CHECK(merge.rows_crossing_tiles == 0);
  CHECK(merge.carries == 0);
  CHECK(merge.longest_row_tiles == 1);
  CHECK(merge_items_picture(lecture, 7) ==
        "    thread 0: nz0 nz1 END0 END1 nz2 nz3 nz4\n"
        "    thread 1: END2 nz5 nz6 END3\n");
  // Tiles of 1 x 2 items: rows 0, 2 and 3 cross a tile boundary, once each.
  const BalancedWork small_tiles = balanced_work(lecture, 1, 2);
  CHECK(small_tiles.threads == 6);
  CHECK(small_tiles.tiles == 6);
  CHECK(small_tiles.min_thread_nonzeros == 0);  // thread 1: END0 END1
  CHECK(small_tiles.max_thread_nonzeros == 2);
  CHECK(small_tiles.rows_split_between_threads == 3);
  CHECK(small_tiles.rows_crossing_tiles == 3);
  CHECK(small_tiles.carries == 3);
  CHECK(small_tiles.longest_row_tiles == 2);
  CHECK(merge_items_picture(lecture, 2) ==
        "    thread 0: nz0 nz1\n    thread 1: END0 END1\n    thread 2: nz2 nz3\n"
        "    thread 3: nz4 END2\n    thread 4: nz5 nz6\n    thread 5: END3\n");

  const std::string report = analyze(lecture, AnalysisShapes{}, table_stages());
  CAPTURE(report);
  for (const char* line :
       {"chapter 04 spmv --analyze: lecture 4x4", "4 rows x 4 columns, 7 nonzeros",
        "row lengths: min 0, mean 1.75, max 3; p50 2, p90 3, p99 3, p99.9 3", "               2-3           3   75.0%",
        "idle lane-steps: 92.7%", "busiest thread / average thread: 3 / 1.75 = 1.71x",
        "Stage 3, vector: 2 lanes per row (from the mean row length 1.75), 16 rows per warp",
        "idle lane-steps inside the groups: 30.0%; counting each warp's wait: 89.1%",
        "with a whole warp per row (32 lanes): 94.5% idle", "nonzeros per thread: min 2, mean 3.50, max 5",
        "rows split between threads: 1", "thread 0: nz0 nz1 END0 END1 nz2 nz3 nz4", "stage 1 scalar            1.71x",
        "stage 3 vector (2 lanes)  1.60x"})
    CHECK_MESSAGE(contains(report, line), line);
  CHECK(report.find(" \n") == std::string::npos);  // no trailing spaces
  AnalysisShapes four_lanes;
  four_lanes.vector_lanes = 4;
  CHECK(contains(analyze(lecture, four_lanes, table_stages()), "4 lanes per row (as asked), 8 rows per warp"));
}

TEST_CASE("analysis: a partly empty last warp, equal rows, no rows, bad shapes") {
  // 33 rows of one nonzero: two warps of one step, the second with one busy lane of 32.
  const WarpWork two_warps = warp_work(generate_matrix("uniform:33:1", 1), 1);
  CHECK(two_warps.warps == 2);
  CHECK(two_warps.idle_in_warps == doctest::Approx(1.0 - 33.0 / 64.0));
  CHECK(two_warps.worst_warp_idle == doctest::Approx(31.0 / 32.0));
  CHECK(two_warps.slowest_warps == 2);

  const CsrMatrix equal = generate_matrix("uniform:1000:16", 2);
  const WarpWork scalar = warp_work(equal, 1);
  CHECK(scalar.idle_in_warps == doctest::Approx(1.0 - 16000.0 / (32 * 32 * 16)));  // 32 warps, the last of 8 rows
  const WarpWork sixteen = warp_work(equal, 16);
  CHECK(sixteen.idle_in_groups == 0.0);
  CHECK(sixteen.idle_in_warps == 0.0);
  const std::string report = analyze(equal, AnalysisShapes{}, table_stages());
  CAPTURE(report);
  CHECK(contains(report, "Stage 3, vector: 16 lanes per row (from the mean row length 16.00), 2 rows per warp"));
  CHECK(contains(report, "idle lane-steps inside the groups: 0.0%; counting each warp's wait: 0.0%"));
  CHECK(contains(report, "busiest thread / average thread: 16 / 16.00 = 1.00x"));
  CHECK(contains(report, "17,000 merge items (1,000 rows + 16,000 nonzeros): 2,429 threads, 19 tiles"));

  const std::string long_row = analyze(generate_matrix("huge-row:10000:2:100000", 3), AnalysisShapes{}, table_stages());
  CAPTURE(long_row);
  // Row 5,000's 100,001 items from merge position 15,000: tiles 16 to 128 of 896 items.
  CHECK(contains(long_row, "the longest row's items touch 113 tiles"));

  CsrMatrix no_rows;
  no_rows.offsets = {0};
  no_rows.cols = 5;
  no_rows.description = "0 x 5";
  CHECK(contains(analyze(no_rows, AnalysisShapes{}, table_stages()), "no rows: nothing for a stage to do"));
  CHECK(balanced_work(no_rows, 128, 7).threads == 0);
  CHECK(merge_items_picture(no_rows, 7).empty());

  for (const AnalysisShapes& bad :
       {AnalysisShapes{100, 0, 128, 7}, AnalysisShapes{256, 3, 128, 7}, AnalysisShapes{256, 64, 128, 7},
        AnalysisShapes{256, 1, 128, 7}, AnalysisShapes{256, 0, 0, 7}, AnalysisShapes{256, 0, 128, 0}})
    CHECK_THROWS_AS(analyze(no_rows, bad, table_stages()), std::invalid_argument);
}

TEST_CASE("balanced_work's one walk over the rows is merge_path's split, thread by thread") {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  for (const char* spec : {"uniform:3000:0", "uniform:3000:1", "rmat:11:4", "huge-row:2000:3:9000", "stencil5:40x7"}) {
    CAPTURE(spec);
    const CsrMatrix matrix = generate_matrix(spec, seed);
    for (int vt : {1, 5, 7, 11}) {
      CAPTURE(vt);
      const BalancedWork work = balanced_work(matrix, 32, vt);
      const std::int64_t rows = matrix.rows, nnz = static_cast<std::int64_t>(matrix.nnz());
      const auto split = [&](std::int64_t diagonal) {
        return merge_path<Bounds::upper>(CountingIterator<std::int64_t>{0}, nnz, matrix.offsets.data() + 1, rows,
                                         diagonal, Less{});
      };
      std::int64_t least = nnz, most = 0;
      for (std::int64_t diagonal = 0; diagonal < rows + nnz; diagonal += vt) {
        const std::int64_t nonzeros = split(std::min(rows + nnz, diagonal + vt)) - split(diagonal);
        least = std::min(least, nonzeros);
        most = std::max(most, nonzeros);
      }
      CHECK(work.threads == (rows + nnz + vt - 1) / vt);
      CHECK(work.min_thread_nonzeros == least);
      CHECK(work.max_thread_nonzeros == most);
    }
  }
}

TEST_CASE("analyzed_stages: every section of the report names one kernel stage of the table, by its trait") {
  for (const StageLabel& label : {table_stages().scalar, table_stages().shared_cache, table_stages().vector,
                                  table_stages().merge, table_stages().tuned}) {
    CAPTURE(label.name);
    CHECK(label.number > 0);
    const auto& table = spmv_stages<float>();
    CHECK(std::any_of(table.begin(), table.end(), [&](const SpmvStage<float>& stage) {
      return stage.number == label.number && stage.name == label.name && stage.kind == RowKind::kernel;
    }));
  }
  for (const SpmvStage<float>& stage : spmv_stages<float>())
    CHECK((stage.traits.model == StageModel::none) == (stage.kind == RowKind::library));
}

TEST_CASE("slice_share: the nonzeros whose x lies in stage 2's shared slice, counted by hand") {
  // Blocks of 2 rows: rows 0-1 hold columns 0-1, rows 2-3 columns 2-3. Row 0 {0, 2}: 1 of 2;
  // row 2 {1, 2, 3}: 2 of 3; row 3 {0, 3}: 1 of 2. 4 of 7.
  const CsrMatrix lecture = generate_matrix("lecture", 1);
  CHECK(slice_share(lecture, 2) == doctest::Approx(4.0 / 7.0));
  CHECK(slice_share(lecture, 256) == 1.0);                       // one block: every column
  CHECK(slice_share(lecture, 1) == doctest::Approx(3.0 / 7.0));  // the diagonal: (0,0), (2,2), (3,3)
  CHECK(slice_share(generate_matrix("uniform:100:0", 1), 32) == 0.0);
  CHECK(contains(invalid_argument([&] { slice_share(lecture, 0); }), "threads per block must be positive"));

  // A 16 x 16 x 32 stencil with blocks of 256 rows: a block is one z-plane, whose slice holds the
  // neighbours at dz = 0, (3 x 16 - 2)^2 of each plane's (3 x 16 - 2)^2 (3 x 32 - 2) / 32 nonzeros.
  CHECK(slice_share(generate_matrix("stencil27:16x16x32", 1), 256) == doctest::Approx(32.0 / 94.0));

  // Clipped to the columns there are: 3 rows x 2 columns, blocks of 4 rows, columns 0-1 only.
  CsrMatrix narrow;
  narrow.rows = 3;
  narrow.cols = 2;
  narrow.offsets = {0, 2, 3, 4};
  narrow.columns = {0, 1, 1, 0};
  narrow.values.assign(4, 1.0);
  validate(narrow);
  CHECK(slice_share(narrow, 4) == 1.0);
  CHECK(contains(analyze(lecture, AnalysisShapes{}, table_stages()),
                 "nonzeros whose column lies in their block's slice: 100.0%"));
}

TEST_CASE("merge_walk: the lecture's merge item by item, its partial sums and carries, counted by hand") {
  const CsrMatrix lecture = generate_matrix("lecture", 1);
  // nz0 nz1 END0 END1 nz2 nz3 nz4 | END2 nz5 nz6 END3, one tile of 2 threads.
  const MergeWalk one_tile = merge_walk(lecture, 2, 7);
  CHECK(one_tile.row_ends == std::vector<std::int32_t>{2, 2, 5, 7});
  REQUIRE(one_tile.threads.size() == 2);
  REQUIRE(one_tile.tiles.size() == 1);
  const MergeThread& first = one_tile.threads[0];
  REQUIRE(first.items.size() == 7);
  CHECK((first.items[2].row_end && first.items[2].index == 0));
  CHECK((first.items[3].row_end && first.items[3].index == 1));  // the empty row: one item
  CHECK((!first.items[4].row_end && first.items[4].index == 2 && first.items[4].row == 2));
  CHECK(first.partial == PartialSum::shared);  // row 2 ends in thread 1, in the same tile
  CHECK(first.partial_row == 2);
  CHECK(first.partial_nonzeros == 3);
  const MergeThread& second = one_tile.threads[1];
  CHECK(second.diagonal == 7);
  CHECK(second.first_nonzero == 5);
  CHECK(second.first_row == 2);
  CHECK(second.items.size() == 4);
  CHECK(second.partial == PartialSum::none);  // its last item is END3
  CHECK(one_tile.tiles[0].end_row == 4);
  CHECK(one_tile.tiles[0].carry_row == -1);

  // Tiles of one thread: row 2 is still open at tile 0's end, so thread 0's piece is the tile's carry.
  const MergeWalk two_tiles = merge_walk(lecture, 1, 7);
  REQUIRE(two_tiles.tiles.size() == 2);
  CHECK(two_tiles.threads[0].partial == PartialSum::carry);
  CHECK(two_tiles.tiles[0].end_row == 2);
  CHECK(two_tiles.tiles[0].carry_row == 2);
  CHECK(two_tiles.tiles[0].carry_nonzeros == 3);
  CHECK(two_tiles.tiles[1].first_nonzero == 5);
  CHECK(two_tiles.tiles[1].first_row == 2);

  // 2 items a thread, 2 threads a tile: t0 nz0 nz1 | t1 END0 END1 || t2 nz2 nz3 | t3 nz4 END2 || t4 nz5 nz6 | t5 END3.
  const MergeWalk pairs = merge_walk(lecture, 2, 2);
  REQUIRE(pairs.threads.size() == 6);
  REQUIRE(pairs.tiles.size() == 3);
  for (std::size_t t : {0, 2, 4}) CHECK(pairs.threads[t].partial == PartialSum::shared);
  for (std::size_t t : {1, 3, 5}) CHECK(pairs.threads[t].partial == PartialSum::none);
  CHECK(pairs.threads[4].partial_row == 3);
  for (const MergeTileSpan& tile : pairs.tiles) CHECK(tile.carry_row == -1);

  CHECK(contains(invalid_argument([&] { merge_walk(lecture, 0, 7); }), "must be positive"));
  CHECK(contains(invalid_argument([&] { merge_walk(generate_matrix("uniform:40:2", 1), 2, 7); }),
                 "120 merge items, more than the 64 a walk shows"));
}

TEST_CASE("merge_walk agrees with merge_items_picture and balanced_work on small matrices") {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  for (const char* spec : {"lecture", "rmat:4:3", "rmat:4:2", "huge-row:8:3:20", "uniform:20:0", "uniform:6:5"}) {
    CAPTURE(spec);
    const CsrMatrix matrix = generate_matrix(spec, seed);
    for (int vt : {1, 3, 7}) {
      for (int threads : {1, 2, 3}) {
        CAPTURE(vt);
        CAPTURE(threads);
        const MergeWalk walk = merge_walk(matrix, threads, vt);
        std::string picture;
        std::int64_t nonzeros = 0, ends = 0;
        for (std::size_t t = 0; t < walk.threads.size(); ++t) {
          picture += "    thread " + std::to_string(t) + ":";
          for (const MergeItem& item : walk.threads[t].items) {
            picture += (item.row_end ? " END" : " nz") + std::to_string(item.index);
            if (item.row_end) {
              CHECK(item.index == ends++);
            } else {
              CHECK(item.index == nonzeros++);
              CHECK(item.row == ends);  // a nonzero belongs to the row whose end comes next
            }
          }
          picture += "\n";
        }
        CHECK(nonzeros == static_cast<std::int64_t>(matrix.nnz()));
        CHECK(ends == matrix.rows);
        CHECK(picture == merge_items_picture(matrix, vt));
        const BalancedWork work = balanced_work(matrix, threads, vt);
        CHECK(static_cast<std::int64_t>(walk.tiles.size()) == work.tiles);
        CHECK(std::count_if(walk.tiles.begin(), walk.tiles.end(),
                            [](const MergeTileSpan& tile) { return tile.carry_row >= 0; }) == work.carries);
      }
    }
  }
}

TEST_CASE("analyze_json: the report as one document, with the merge walk of a small matrix") {
  const CsrMatrix lecture = generate_matrix("lecture", 1);
  const nlohmann::json document = nlohmann::json::parse(analyze_json(lecture, AnalysisShapes{}, {"a note"}));
  CHECK(document["analysis"] == "spmv-merge");
  CHECK(document["chapter"] == "04");
  CHECK(document["matrix"]["rows"] == 4);
  CHECK(document["matrix"]["nonzeros"] == 7);
  CHECK(document["row_lengths"]["buckets"] == nlohmann::json::array({1, 0, 3}));
  CHECK(document["notes"] == nlohmann::json::array({"a note"}));
  const nlohmann::json& stages = document["stages"];
  CHECK(stages["scalar"]["idle_in_warps"].get<double>() == doctest::Approx(1.0 - 7.0 / 96.0));
  CHECK(stages["shared_cache"]["slice_share"] == 1.0);
  CHECK(stages["vector"]["lanes_per_row"] == 2);
  CHECK(stages["vector"]["lanes_from_mean"] == true);
  CHECK(stages["merge"]["threads"] == 2);
  CHECK(stages["merge"]["rows_split_between_threads"] == 1);
  CHECK(stages["tuned"]["kernel"] == "short-rows");
  const nlohmann::json& walk = document["merge_walk"];
  CHECK(walk["threads_per_tile"] == 2);
  CHECK(walk["items_per_thread"] == 7);
  CHECK(walk["row_ends"] == nlohmann::json::array({2, 2, 5, 7}));
  CHECK(walk["threads"][0]["items"][3] == nlohmann::json({{"kind", "end"}, {"index", 1}, {"row", 1}}));
  CHECK(walk["threads"][0]["partial"] == "shared");
  CHECK(walk["threads"][1]["partial"] == "none");
  CHECK(walk["tiles"][0]["carry_row"] == -1);

  const nlohmann::json large = nlohmann::json::parse(analyze_json(generate_matrix("uniform:1000:16", 2), {}, {}));
  CHECK(large["merge_walk"].is_null());
  CHECK(large["stages"]["merge"]["tiles"] == 19);
  CHECK(large["stages"]["tuned"]["kernel"] == "vector");  // regular rows, columns within 32,768 of the diagonal

  CsrMatrix no_rows;
  no_rows.offsets = {0};
  no_rows.cols = 5;
  const nlohmann::json empty = nlohmann::json::parse(analyze_json(no_rows, {}, {}));
  CHECK(empty["stages"].is_null());
  CHECK(empty["merge_walk"].is_null());
  AnalysisShapes bad;
  bad.walk_threads = 0;
  CHECK_THROWS_AS(analyze_json(lecture, bad, {}), std::invalid_argument);
}
