#include "matrix.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <type_traits>
#include <utility>

#include <sys/stat.h>

#include "generators.hpp"
#include "host/parallel.hpp"
#include "matrix_assembly.hpp"
#include "matrix_market.hpp"

namespace stepwise::spmv {

using namespace detail;

void validate(const CsrMatrix& matrix) {
  const auto fail = [](const std::string& what) { throw std::invalid_argument("invalid CSR matrix: " + what); };
  if (matrix.rows < 0 || matrix.cols < 0)
    fail("negative size " + std::to_string(matrix.rows) + " x " + std::to_string(matrix.cols));
  if (matrix.offsets.size() != static_cast<std::size_t>(matrix.rows) + 1)
    fail(std::to_string(matrix.offsets.size()) + " offsets for " + std::to_string(matrix.rows) +
         " rows (want rows + 1)");
  if (matrix.values.size() != matrix.columns.size())
    fail(std::to_string(matrix.values.size()) + " values for " + std::to_string(matrix.columns.size()) + " columns");
  if (matrix.columns.size() > static_cast<std::size_t>(kMaxIndex))
    fail(std::to_string(matrix.columns.size()) + " nonzeros is above " + kLimitText);
  if (matrix.offsets[0] != 0) fail("offsets[0] = " + std::to_string(matrix.offsets[0]) + ", want 0");
  for (std::int32_t row = 0; row < matrix.rows; ++row)
    if (matrix.offsets[row + 1] < matrix.offsets[row])
      fail("offsets[" + std::to_string(row + 1) + "] = " + std::to_string(matrix.offsets[row + 1]) + " < offsets[" +
           std::to_string(row) + "] = " + std::to_string(matrix.offsets[row]) + ": offsets must not decrease");
  if (static_cast<std::size_t>(matrix.offsets[matrix.rows]) != matrix.columns.size())
    fail("offsets[rows] = " + std::to_string(matrix.offsets[matrix.rows]) + ", want the nonzero count " +
         std::to_string(matrix.columns.size()));
  for (std::int32_t row = 0; row < matrix.rows; ++row) {
    for (std::int32_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j) {
      const std::int32_t column = matrix.columns[j];
      if (column < 0 || column >= matrix.cols)
        fail("row " + std::to_string(row) + ": column " + std::to_string(column) + " out of range [0, " +
             std::to_string(matrix.cols) + ")");
      if (j > matrix.offsets[row] && column <= matrix.columns[j - 1])
        fail("row " + std::to_string(row) + ": column " + std::to_string(column) + " after column " +
             std::to_string(matrix.columns[j - 1]) + ": columns must increase strictly within a row");
    }
  }
}

std::int32_t longest_row(const CsrMatrix& matrix) {
  std::int32_t longest = 0;
  for (std::int32_t row = 0; row < matrix.rows; ++row) longest = std::max(longest, matrix.row_length(row));
  return longest;
}

double host_bytes_needed(const MatrixSize& size, std::size_t value_bytes, bool analyze) {
  const double rows = static_cast<double>(size.rows), cols = static_cast<double>(size.cols);
  const double nonzeros = static_cast<double>(size.nonzeros);
  const double matrix = 12.0 * nonzeros + 4.0 * (rows + 1.0);           // int32 columns, double values, offsets
  if (analyze) return matrix + std::max(size.build_bytes, 4.0 * rows);  // the row lengths, sorted
  // x and x rounded (8 bytes a column each), the values or x converted for the device, the
  // reference, its row scales and its timed copy (8 bytes a row each), y read back.
  const double run = 16.0 * cols + static_cast<double>(value_bytes) * std::max(nonzeros, cols) + 24.0 * rows +
                     static_cast<double>(value_bytes) * rows;
  return matrix + std::max(size.build_bytes, run);
}

MatrixSource::MatrixSource(const std::string& spec) : spec_(spec) {
  if (spec.empty()) throw MatrixError("empty: give a generator (" + known_generators() + ") or a Matrix Market file");
  generated_ = is_generator_spec(spec);
  if (generated_) {
    size_ = generator_size(spec);
    return;
  }
  struct stat status {};
  const bool path_like = spec.find('/') != std::string::npos ||
                         (spec.find('.') != std::string::npos && spec.find(':') == std::string::npos);
  if (stat(spec.c_str(), &status) != 0 && errno == ENOENT && !path_like)
    throw MatrixError(spec + ": unknown generator '" + generator_name(spec) + "' (known: " + known_generators() +
                      "), and no file of that name");
  MatrixMarketHeader header = read_matrix_market_header(spec);
  size_ = std::move(header.size);
  stream_ = header.stream;
  stream_text_ = std::move(header.stream_text);
}

CsrMatrix MatrixSource::load(std::uint64_t seed) {
  if (generated_) return generate_matrix(spec_, seed);
  if (!stream_) return read_matrix_market(spec_);
  const std::string text = std::move(stream_text_);
  stream_text_.clear();
  return parse_matrix_market(spec_, text);
}

namespace {

/// Sets @p values[i] = draw(random) for every i, in parallel chunks of 2^16, each chunk drawing from
/// its own stream of (@p seed, @p stream): the same values whatever the number of threads.
template <class Draw>
void fill_from_streams(std::vector<double>& values, std::uint64_t seed, Stream stream, Draw draw) {
  constexpr std::int64_t kPerChunk = 1 << 16;
  const std::int64_t total = static_cast<std::int64_t>(values.size());
  for_each_chunk((total + kPerChunk - 1) / kPerChunk, [&](std::int64_t chunk) {
    RandomStream random(seed, stream, static_cast<std::uint64_t>(chunk));
    const std::int64_t last = std::min(total, (chunk + 1) * kPerChunk);
    for (std::int64_t i = chunk * kPerChunk; i < last; ++i) values[i] = draw(random);
  });
}

}  // namespace

CsrMatrix load_matrix(const std::string& spec, std::uint64_t seed) { return MatrixSource(spec).load(seed); }

std::vector<double> make_x(std::size_t count, std::uint64_t seed) {
  std::vector<double> x(count);
  fill_from_streams(x, seed, Stream::x, [](RandomStream& random) { return unit_value(random.next()); });
  // Never all equal: a constant x would hide a stage that mixes up columns.
  if (count >= 2 && std::all_of(x.begin(), x.end(), [&](double value) { return value == x[0]; }))
    x[count - 1] = x[0] == 0.5 ? -0.5 : 0.5;
  return x;
}

std::int64_t integer_value_bound(std::int64_t longest_row, std::size_t value_bytes) {
  // The bound of the header: longest_row x M x M <= exact_integer_limit, the largest M up to 8.
  const double limit = exact_integer_limit(value_bytes);
  for (std::int64_t bound = kMaxIntegerValue; bound >= 1; --bound)
    if (static_cast<double>(longest_row) * static_cast<double>(bound * bound) <= limit) return bound;
  return 0;
}

std::int64_t make_integer_valued(CsrMatrix& matrix, std::size_t value_bytes, std::uint64_t seed) {
  const std::int64_t bound = integer_value_bound(longest_row(matrix), value_bytes);
  if (bound == 0) return 0;
  fill_from_streams(matrix.values, seed, Stream::integer_values,
                    [bound](RandomStream& random) { return nonzero_integer(random, bound); });
  matrix.description += ", integer values in [-" + std::to_string(bound) + ", " + std::to_string(bound) + "]";
  return bound;
}

std::vector<double> make_integer_x(std::size_t count, std::int64_t bound, std::uint64_t seed) {
  if (bound < 1) throw std::invalid_argument("make_integer_x: bound " + std::to_string(bound) + ", want 1 or more");
  std::vector<double> x(count);
  fill_from_streams(x, seed, Stream::integer_x,
                    [bound](RandomStream& random) { return nonzero_integer(random, bound); });
  // Never all equal: a constant x would hide a stage that mixes up columns.
  if (count >= 2 && std::all_of(x.begin(), x.end(), [&](double value) { return value == x[0]; })) x[count - 1] = -x[0];
  return x;
}

template <class T>
Check check_y(const std::vector<T>& y, const std::vector<double>& want, const std::vector<double>& scale,
              ValueKind values) {
  if (values == ValueKind::real) return compare_within(y, want, scale, tolerance<T>());
  return compare_exact(std::vector<double>(y.begin(), y.end()), want);
}

template <class T>
void spmv_reference(const CsrMatrix& matrix, const std::vector<double>& x, std::vector<double>& y,
                    std::vector<double>* scale) {
  if (x.size() != static_cast<std::size_t>(matrix.cols))
    throw std::invalid_argument("spmv_reference: x has " + std::to_string(x.size()) + " values for " +
                                std::to_string(matrix.cols) + " columns");
  // x as T sees it: rounded to T, held in double.
  std::vector<double> x_rounded;
  if constexpr (!std::is_same_v<T, double>) {
    x_rounded.resize(x.size());
    constexpr std::int64_t kPerChunk = 1 << 16;
    const std::int64_t total = static_cast<std::int64_t>(x.size());
    for_each_chunk((total + kPerChunk - 1) / kPerChunk, [&](std::int64_t chunk) {
      const std::int64_t last = std::min(total, (chunk + 1) * kPerChunk);
      for (std::int64_t i = chunk * kPerChunk; i < last; ++i) x_rounded[i] = static_cast<double>(static_cast<T>(x[i]));
    });
  }
  const std::vector<double>& x_as_t = std::is_same_v<T, double> ? x : x_rounded;
  y.assign(static_cast<std::size_t>(matrix.rows), 0.0);
  if (scale) scale->assign(static_cast<std::size_t>(matrix.rows), 0.0);
  for_each_row_chunk(matrix.rows, [&](std::int64_t first_row, std::int64_t last_row, std::int64_t) {
    for (std::int64_t row = first_row; row < last_row; ++row) {
      double sum = 0.0, magnitude = 0.0;
      for (std::int32_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j) {
        const double product = static_cast<double>(static_cast<T>(matrix.values[j])) * x_as_t[matrix.columns[j]];
        sum += product;
        magnitude += std::abs(product);
      }
      y[row] = sum;
      if (scale) (*scale)[row] = (matrix.row_length(static_cast<std::int32_t>(row)) + 2.0) * magnitude;
    }
  });
}

template Check check_y<float>(const std::vector<float>&, const std::vector<double>&, const std::vector<double>&,
                              ValueKind);
template Check check_y<double>(const std::vector<double>&, const std::vector<double>&, const std::vector<double>&,
                               ValueKind);
template void spmv_reference<float>(const CsrMatrix&, const std::vector<double>&, std::vector<double>&,
                                    std::vector<double>*);
template void spmv_reference<double>(const CsrMatrix&, const std::vector<double>&, std::vector<double>&,
                                     std::vector<double>*);

}  // namespace stepwise::spmv
