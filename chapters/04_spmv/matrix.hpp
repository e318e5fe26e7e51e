/// @file matrix.hpp
/// Chapter 04's matrices: the CSR format and its checks, a --matrix spec opened (MatrixSource:
/// a generator of generators.hpp or a file of matrix_market.hpp), x and the CPU reference. Host
/// code only (no CUDA header): the CPU tests and --analyze use it all.
///
/// CSR (compressed sparse row), the lecture's 4 x 4 example with its empty row 1:
///
///     | 3 0 1 0 |     values  = {3, 1, 2, 4, 1, 1, 1}   (the lecture's Av)
///     | 0 0 0 0 |     columns = {0, 2, 1, 2, 3, 0, 3}   (Aj)
///     | 0 2 4 1 |     offsets = {0, 2, 2, 5, 7}          (Ap: row r is [offsets[r], offsets[r+1]))
///     | 1 0 0 1 |
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/verify.hpp"

namespace stepwise::spmv {

/// A sparse matrix in CSR form with 32-bit indices (cuSPARSE's CUSPARSE_INDEX_32I): at most
/// 2^31 - 1 rows, columns and nonzeros. Within a row the columns are strictly increasing
/// (duplicates of a file are summed). Values are held in double; every generator draws values
/// that are exact in float, so a float32 run multiplies the very same matrix.
struct CsrMatrix {
  std::int32_t rows = 0;
  std::int32_t cols = 0;
  std::vector<std::int32_t> offsets;  ///< rows + 1 entries, offsets[0] = 0, offsets[rows] = nnz
  std::vector<std::int32_t> columns;  ///< nnz entries
  std::vector<double> values;         ///< nnz entries
  std::string description;  ///< one line for the report: `stencil27 128x128x256`, `file.mtx (symmetric, expanded)`

  std::size_t nnz() const { return columns.size(); }
  /// Number of nonzeros of row @p row.
  std::int32_t row_length(std::int32_t row) const { return offsets[row + 1] - offsets[row]; }
};

/// The nonzeros of the longest row of @p matrix (0 without rows).
std::int32_t longest_row(const CsrMatrix& matrix);

/// Checks the CSR invariants (sizes, offsets non-decreasing from 0 to nnz, columns in range and
/// strictly increasing within each row).
/// @throws std::invalid_argument naming the first violation.
void validate(const CsrMatrix& matrix);

/// A bad --matrix specification or a bad Matrix Market file: one line naming the spec, or the
/// file and line (`bad.mtx:7: row index 0 out of range [1, 4]`). Main turns it into exit code 2.
class MatrixError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a --matrix spec says about its matrix before it is built: from a generator's arguments,
/// or from a Matrix Market file's banner and size line.
struct MatrixSize {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  /// The nonzeros, or at most this many: R-MAT's edges before repeated ones are merged, a file's
  /// entries (the stored triangle mirrored) before duplicates are summed.
  std::int64_t nonzeros = 0;
  /// The nonzeros of the longest row, or at most this many: exact for the lecture's matrix, the
  /// stencils, uniform and huge-row; R-MAT's and a file's are at most their columns and nonzeros.
  std::int64_t longest_row = 0;
  /// Host bytes building the matrix holds besides the matrix: a file's text and its entries, or
  /// R-MAT's edges (each twice while they are sorted by row) and vertex permutation.
  double build_bytes = 0.0;
  /// What the spec leaves unsaid and a run says in a note (huge-row's columns when LONG > ROWS).
  std::vector<std::string> notes;
};

/// The host memory a run of the matrix @p size describes holds at its peak with elements of
/// @p value_bytes: building the matrix, the matrix (CSR with double values), and then x (and x
/// rounded), the values converted for the device, the reference, its row scales and timed copy,
/// and y read back; with @p analyze, building the matrix and the analysis's row lengths only.
double host_bytes_needed(const MatrixSize& size, std::size_t value_bytes, bool analyze);

/// A --matrix spec opened, a generator (generators.hpp) or a Matrix Market file
/// (matrix_market.hpp): what it says about its matrix (MatrixSize) before the matrix is built,
/// then the matrix.
class MatrixSource {
 public:
  /// Opens @p spec: a generator's arguments are read and checked as generate_matrix checks them;
  /// a regular file's banner and size line are read and checked as read_matrix_market checks
  /// them (its entries are read by load); a file that is not regular (a pipe) is read whole now,
  /// as read_matrix_market reads it, since it cannot be read twice.
  /// @throws MatrixError naming @p spec: an empty spec, an unknown generator where no file of
  ///   that name exists (`unifrm:10:2: unknown generator 'unifrm' (known: ...)`), any error of
  ///   generate_matrix's arguments or of the file's header.
  explicit MatrixSource(const std::string& spec);

  const std::string& spec() const { return spec_; }
  const MatrixSize& size() const { return size_; }
  /// True for a generator spec, false for a file.
  bool generated() const { return generated_; }

  /// The matrix: generated from @p seed, or read from the file (a stream's text, read by the
  /// constructor, is parsed and released).
  /// @throws MatrixError as generate_matrix and read_matrix_market do.
  CsrMatrix load(std::uint64_t seed);

 private:
  std::string spec_;
  bool generated_ = false;
  MatrixSize size_;
  std::string stream_text_;  ///< a stream's whole text, read by the constructor
  bool stream_ = false;
};

/// MatrixSource(@p spec).load(@p seed): generate_matrix for a generator spec, read_matrix_market
/// for a file.
CsrMatrix load_matrix(const std::string& spec, std::uint64_t seed);

/// The x vector of a run: @p count values uniform in [-1, 1), exact in float, never all equal.
std::vector<double> make_x(std::size_t count, std::uint64_t seed);

/// The CPU reference y = A x in double, from the matrix and x as element type T sees them
/// (each value and each x rounded to T first, then multiplied and summed in double), and the
/// error scale of each row: (row length + 2) x sum_j |a_rj x_j| (see tolerance()).
template <class T>
void spmv_reference(const CsrMatrix& matrix, const std::vector<double>& x, std::vector<double>& y,
                    std::vector<double>* scale = nullptr);

/// The tolerance a stage's y must meet against the reference: |y_r - want_r| <= tolerance x
/// scale_r with scale_r = (len_r + 2) sum_j |a_rj x_j|. A sum of len terms in any order, each
/// product rounded once, is within (len + 1) u sum |terms| of the exact sum (u the unit roundoff,
/// 2^-24 float, 2^-53 double), plus u for y's own rounding: so the tolerance is u itself, for
/// every summation order a stage may use (sequential, shuffle tree, carries across tiles).
template <class T>
constexpr double tolerance() {
  return sizeof(T) == 4 ? 1.0 / (1 << 24) : 1.0 / 9007199254740992.0;
}

// --values integer: a check that every summation order must pass exactly -------------------------

/// The values a run multiplies (--values).
enum class ValueKind {
  /// The matrix's own values and x uniform in [-1, 1) (make_x), checked within tolerance(): a
  /// bound that grows with the row, so on a row of 2^24 nonzeros in float32 it admits any y
  /// between -sum |a x| and sum |a x|, and says nothing about the carries of a long row.
  real,
  /// Small integers in place of the values and of x (make_integer_valued, make_integer_x), few
  /// enough that every partial sum of a row is an integer the element type holds exactly: y
  /// must then equal the reference exactly, in any summation order.
  integer,
};

/// The largest |value| and |x| of --values integer: integers in [-8, 8] without 0.
inline constexpr std::int64_t kMaxIntegerValue = 8;

/// The largest magnitude up to which every integer is exact in an element of @p value_bytes: 2^24
/// in float32 (a 24-bit significand), 2^53 in float64.
constexpr double exact_integer_limit(std::size_t value_bytes) {
  return value_bytes == sizeof(float) ? 16777216.0 : 9007199254740992.0;
}

/// The bound M of --values integer for a matrix whose longest row has @p longest_row nonzeros,
/// in elements of @p value_bytes: the largest M from 1 to kMaxIntegerValue with
/// longest_row x M x M <= exact_integer_limit. With values and x integers in [-M, M], every
/// product is an integer of magnitude at most M^2 and every partial sum of a row, in any order
/// and grouping (a thread's running sum, a shuffle tree, a tile's carry), an integer of
/// magnitude at most longest_row x M^2: exact, so the sum is exact whatever the order.
/// @returns M, or 0 when even M = 1 is too large (a float32 row above 2^24 nonzeros).
std::int64_t integer_value_bound(std::int64_t longest_row, std::size_t value_bytes);

/// Replaces every value of @p matrix by an integer in [-M, M] without 0, M =
/// integer_value_bound(longest_row(matrix), @p value_bytes), drawn from @p seed and the
/// nonzero's place (the same matrix on any machine and any number of threads), and adds
/// `, integer values in [-M, M]` to its description.
/// @returns M, or 0 (the matrix left as it is) when no M keeps its sums exact.
std::int64_t make_integer_valued(CsrMatrix& matrix, std::size_t value_bytes, std::uint64_t seed);

/// The x of --values integer: @p count integers in [-@p bound, @p bound] without 0, reproducible
/// from @p seed, never all equal.
std::vector<double> make_integer_x(std::size_t count, std::int64_t bound, std::uint64_t seed);

/// A stage's @p y against the reference @p want: with ValueKind::integer exactly (every element
/// equal), else within tolerance<T>() x @p scale (matrix.hpp's bound, any summation order).
template <class T>
Check check_y(const std::vector<T>& y, const std::vector<double>& want, const std::vector<double>& scale,
              ValueKind values);

}  // namespace stepwise::spmv
