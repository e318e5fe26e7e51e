// CPU tests of chapter 04's Matrix Market reader (matrix_market.hpp): valid files, every error it
// names (with the file and the line, in files cut into many parallel chunks too), memory that goes
// by what a file holds, and files that are not regular.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "generators.hpp"
#include "matrix.hpp"
#include "matrix_market.hpp"
#include "matrix_test_support.hpp"

using namespace stepwise;
using namespace stepwise::spmv;
using namespace stepwise::spmv::tests;

namespace {

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

}  // namespace

// The Matrix Market reader ------------------------------------------------------------------------

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
