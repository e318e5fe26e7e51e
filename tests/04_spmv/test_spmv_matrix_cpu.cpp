// CPU tests of chapter 04's CSR core (matrix.hpp): the CSR invariants, the host memory a run
// needs, x, and the CPU reference with its float rounding and error scale.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "generators.hpp"
#include "matrix.hpp"
#include "matrix_test_support.hpp"

using namespace stepwise;
using namespace stepwise::spmv;
using namespace stepwise::spmv::tests;

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

// --values integer --------------------------------------------------------------------------------

TEST_CASE("integer_value_bound: the largest M up to 8 with longest row x M^2 at most 2^24 (float32), 2^53 (float64)") {
  CHECK(exact_integer_limit(sizeof(float)) == std::ldexp(1.0, 24));
  CHECK(exact_integer_limit(sizeof(double)) == std::ldexp(1.0, 53));
  CHECK(integer_value_bound(0, sizeof(float)) == kMaxIntegerValue);
  CHECK(integer_value_bound(27, sizeof(float)) == 8);
  CHECK(integer_value_bound(262144, sizeof(float)) == 8);  // 2^18 x 64 = 2^24 exactly
  CHECK(integer_value_bound(262145, sizeof(float)) == 7);
  CHECK(integer_value_bound(4194304, sizeof(float)) == 2);  // 2^22 x 4 = 2^24
  CHECK(integer_value_bound(4194305, sizeof(float)) == 1);
  CHECK(integer_value_bound(16777216, sizeof(float)) == 1);  // 2^24 terms of +-1: every partial sum within 2^24
  CHECK(integer_value_bound(16777217, sizeof(float)) == 0);  // no bound is exact in every order
  CHECK(integer_value_bound(2147483647, sizeof(double)) == 8);
  // Every M it gives keeps the sums exact, and M + 1 would not (below 8).
  for (std::int64_t longest : {1, 2, 1000, 300000, 1000000, 5000000, 16777216}) {
    CAPTURE(longest);
    const std::int64_t m = integer_value_bound(longest, sizeof(float));
    REQUIRE(m >= 1);
    CHECK(static_cast<double>(longest * m * m) <= exact_integer_limit(sizeof(float)));
    if (m < kMaxIntegerValue)
      CHECK(static_cast<double>(longest * (m + 1) * (m + 1)) > exact_integer_limit(sizeof(float)));
  }
  // The chapter's default huge row, huge-row:4194304:8:16777216: 2^24 nonzeros, exact with values and x +-1.
  const MatrixSize huge = MatrixSource("huge-row:4194304:8:16777216").size();
  CHECK(huge.longest_row == 16777216);
  CHECK(integer_value_bound(huge.longest_row, sizeof(float)) == 1);
  CHECK(integer_value_bound(huge.longest_row, sizeof(double)) == 8);
}

TEST_CASE("make_integer_valued: nonzero integers in [-M, M] in place of the values, the pattern kept, reproducible") {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const CsrMatrix real = generate_matrix("huge-row:3000:5:300000", seed);
  CsrMatrix matrix = real;
  const std::int64_t m = make_integer_valued(matrix, sizeof(float), seed);
  CHECK(m == 7);  // 300000 x 49 <= 2^24 < 300000 x 64
  CHECK(matrix.offsets == real.offsets);
  CHECK(matrix.columns == real.columns);
  CHECK(matrix.description == real.description + ", integer values in [-7, 7]");
  std::map<double, std::int64_t> counts;
  for (double value : matrix.values) ++counts[value];
  CHECK(counts.size() == 14);  // every one of -7 .. -1, 1 .. 7, and nothing else
  for (const auto& [value, count] : counts) {
    CAPTURE(value);
    CHECK(value == std::floor(value));
    CHECK(value != 0.0);
    CHECK(std::abs(value) <= 7.0);
    CHECK(count > 0);
  }
  CsrMatrix again = real;
  CHECK(make_integer_valued(again, sizeof(float), seed) == 7);
  CHECK(again.values == matrix.values);
  CsrMatrix other = real;
  make_integer_valued(other, sizeof(float), seed + 1);
  CHECK(other.values != matrix.values);
  // float64 holds far longer sums: the full range.
  CsrMatrix wide = real;
  CHECK(make_integer_valued(wide, sizeof(double), seed) == 8);
}

TEST_CASE("make_integer_x: nonzero integers in [-M, M], reproducible, never all equal") {
  const std::vector<double> x = make_integer_x(100003, 8, 21);
  REQUIRE(x.size() == 100003);
  std::set<double> seen(x.begin(), x.end());
  CHECK(seen == std::set<double>{-8, -7, -6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(make_integer_x(100003, 8, 21) == x);
  CHECK(make_integer_x(100003, 8, 22) != x);
  const std::vector<double> signs = make_integer_x(1000, 1, 5);
  CHECK(std::set<double>(signs.begin(), signs.end()) == std::set<double>{-1, 1});
  for (std::uint64_t seed = 0; seed < 64; ++seed) {  // two of +-1 are equal half the time unless made not to be
    const std::vector<double> two = make_integer_x(2, 1, seed);
    CHECK(two[0] == -two[1]);
  }
  CHECK(make_integer_x(0, 3, 1).empty());
  CHECK(make_integer_x(1, 3, 1).size() == 1);
  CHECK(contains(invalid_argument([] { make_integer_x(5, 0, 1); }), "bound 0"));
}

TEST_CASE("check_y: exact with integer values (a difference of 1 fails), within the float bound with real ones") {
  const std::vector<double> want = {6, 0, -20, 5};
  const std::vector<double> scale = {24, 0, 100, 20};
  CHECK(check_y(std::vector<float>{6, 0, -20, 5}, want, scale, ValueKind::integer).passed);
  const Check off = check_y(std::vector<float>{6, 0, -19, 5}, want, scale, ValueKind::integer);
  CHECK_FALSE(off.passed);
  CHECK(contains(off.detail, "1 of 4 elements differ; first at index 2"));
  // The float bound, 2^-24 x 100, admits neither 1 nor anything above 5.96e-6 at index 2.
  CHECK_FALSE(check_y(std::vector<float>{6, 0, -19, 5}, want, scale, ValueKind::real).passed);
  const std::vector<float> last_bit = {6, 0, std::nextafter(-20.0f, 0.0f), 5};  // 2^-19 off
  CHECK(check_y(last_bit, want, scale, ValueKind::real).passed);
  CHECK_FALSE(check_y(last_bit, want, scale, ValueKind::integer).passed);
  // NaN (the poison) never passes; an empty row must be 0 either way.
  CHECK_FALSE(check_y(std::vector<float>{6, std::nanf(""), -20, 5}, want, scale, ValueKind::integer).passed);
  CHECK_FALSE(check_y(std::vector<float>{6, 1e-30f, -20, 5}, want, scale, ValueKind::real).passed);
  CHECK_FALSE(check_y(std::vector<float>{6, 0, -20}, want, scale, ValueKind::integer).passed);
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
