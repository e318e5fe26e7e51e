// CPU tests of chapter 04's generators (generators.hpp): structure counted by hand,
// reproducibility, values exact in float, every bad --matrix spec, a generator's size before it is
// built, --n's matrix, and every generated matrix bit for bit as before the split of matrix.cpp.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "analysis.hpp"  // row_lengths: R-MAT's skew
#include "generators.hpp"
#include "matrix.hpp"
#include "matrix_test_support.hpp"

using namespace stepwise;
using namespace stepwise::spmv;
using namespace stepwise::spmv::tests;

namespace {

/// Checks that generating @p spec throws a MatrixError naming the spec and saying @p why.
void check_bad_spec(const std::string& spec, const std::string& why) {
  CAPTURE(spec);
  const std::string message = matrix_error([&] { generate_matrix(spec, 1); });
  CAPTURE(message);
  CHECK(message.rfind(spec + ": ", 0) == 0);
  CHECK(contains(message, why));
}

double row_sum(const CsrMatrix& matrix, std::int32_t row) {
  double sum = 0.0;
  for (std::int32_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j) sum += matrix.values[j];
  return sum;
}

/// FNV-1a over @p bytes bytes at @p data, continuing from @p hash.
std::uint64_t fnv1a(std::uint64_t hash, const void* data, std::size_t bytes) {
  const auto* byte = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) hash = (hash ^ byte[i]) * 0x100000001B3ull;
  return hash;
}

/// A checksum of every bit of @p matrix: its sizes, its three arrays and its description.
std::uint64_t checksum(const CsrMatrix& matrix) {
  std::uint64_t hash = 0xCBF29CE484222325ull;
  hash = fnv1a(hash, &matrix.rows, sizeof matrix.rows);
  hash = fnv1a(hash, &matrix.cols, sizeof matrix.cols);
  hash = fnv1a(hash, matrix.offsets.data(), matrix.offsets.size() * sizeof(std::int32_t));
  hash = fnv1a(hash, matrix.columns.data(), matrix.columns.size() * sizeof(std::int32_t));
  hash = fnv1a(hash, matrix.values.data(), matrix.values.size() * sizeof(double));
  return fnv1a(hash, matrix.description.data(), matrix.description.size());
}

}  // namespace

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
  for (const char* spec :
       {"lecture", "stencil5:30x17", "stencil27:9x5x4", "uniform:1000:7", "uniform:300x5000:9", "huge-row:1000:4:5000",
        "huge-row:2000:3:1500", "rmat:10:8", "uniform:50:0", "stencil5:1x1", "stencil5:2x1", "stencil5:1x7",
        "stencil27:1x1x2", "stencil27:2x3x1", "huge-row:1:0:70", "huge-row:50:40:30"}) {
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
      CHECK(size.longest_row == 1024);  // at most one nonzero per column
      CHECK(longest_row(matrix) <= size.longest_row);
    } else {
      CHECK(size.nonzeros == static_cast<std::int64_t>(matrix.nnz()));
      CHECK(size.build_bytes == 0.0);
      CHECK(size.longest_row == longest_row(matrix));  // exact: what --values integer checks before building
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

TEST_CASE("every generator's matrix, and x, bit for bit as before matrix.cpp was split in three") {
  // Checksums of the matrices the single matrix.cpp generated (every offset, column, value bit and
  // the description): several row chunks, sparse and dense column draws, R-MAT's edge chunks and
  // row buckets, huge-row's long row in a chunk of its own stream.
  struct Expected {
    const char* spec;
    std::uint64_t seed;
    std::size_t nonzeros;
    std::uint64_t checksum;
  };
  for (const Expected& expected : {
           Expected{"lecture", 1ull, 7, 0xED744894ABAB7C1Cull},
           Expected{"lecture", 12345ull, 7, 0xED744894ABAB7C1Cull},
           Expected{"stencil5:30x31", 1ull, 4528, 0xAB3AEC3A9B0FE546ull},
           Expected{"stencil5:30x31", 12345ull, 4528, 0xAB3AEC3A9B0FE546ull},
           Expected{"stencil27:9x10x11", 1ull, 21700, 0xD5BBF353A5C7BFC9ull},
           Expected{"stencil27:9x10x11", 12345ull, 21700, 0xD5BBF353A5C7BFC9ull},
           Expected{"uniform:20000:8", 1ull, 160000, 0xBCA657D71E0F5B6Eull},
           Expected{"uniform:20000:8", 12345ull, 160000, 0x088C16095F5D961Eull},
           Expected{"uniform:300x70000:40", 1ull, 12000, 0x683D82C238482633ull},
           Expected{"uniform:300x70000:40", 12345ull, 12000, 0x440FB648ABE8F0F0ull},
           Expected{"uniform:200:100", 1ull, 20000, 0xDCE32C98D4941119ull},
           Expected{"uniform:200:100", 12345ull, 20000, 0x2126545368FFEA21ull},
           Expected{"rmat:16:8", 1ull, 494378, 0xBD63B01D0BA968D1ull},
           Expected{"rmat:16:8", 12345ull, 494354, 0x89C0ABE81444EE6Aull},
           Expected{"huge-row:9000:5:2500", 1ull, 47495, 0x9689C49029C908BFull},
           Expected{"huge-row:9000:5:2500", 12345ull, 47495, 0xB8A10D49FD67290Aull},
           Expected{"huge-row:10:2:100", 1ull, 118, 0xE0850111F72AFBA1ull},
           Expected{"huge-row:10:2:100", 12345ull, 118, 0x0B8DEA0449173BDBull},
       }) {
    CAPTURE(expected.spec);
    CAPTURE(expected.seed);
    const CsrMatrix matrix = generate_matrix(expected.spec, expected.seed);
    CHECK(matrix.nnz() == expected.nonzeros);
    CHECK(checksum(matrix) == expected.checksum);
  }
  const auto x_checksum = [](std::uint64_t seed) {
    const std::vector<double> x = make_x(100000, seed);
    return fnv1a(0xCBF29CE484222325ull, x.data(), x.size() * sizeof(double));
  };
  CHECK(x_checksum(1) == 0x13B2BCF543FB1654ull);
  CHECK(x_checksum(12345) == 0x22ED4B73ED1BE7C6ull);
}
