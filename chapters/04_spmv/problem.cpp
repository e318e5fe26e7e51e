#include "problem.hpp"

#include <algorithm>

#include "analysis.hpp"
#include "host/cli.hpp"
#include "host/report.hpp"
#include "host/sizes.hpp"
#include "host/stage.hpp"
#include "host/verify.hpp"

namespace stepwise::spmv {
namespace {

template <class T>
std::vector<T> converted(const std::vector<double>& values) {
  return std::vector<T>(values.begin(), values.end());
}

}  // namespace

double device_bytes_needed(const MatrixSize& size, std::size_t value_bytes) {
  const double nnz = static_cast<double>(size.nonzeros);
  const double rows = static_cast<double>(size.rows), cols = static_cast<double>(size.cols);
  const double tiles = (nnz + rows) / kMinTileItems + 2;
  return nnz * (4.0 + static_cast<double>(value_bytes)) + 4.0 * (rows + 1.0) +
         static_cast<double>(value_bytes) * (rows + cols) +
         tiles * (8.0 + 8.0 + 16.0);  // tile boundaries (searched each launch, and kept), carries
}

double device_bytes_needed(const CsrMatrix& matrix, std::size_t value_bytes) {
  MatrixSize size;
  size.rows = matrix.rows;
  size.cols = matrix.cols;
  size.nonzeros = static_cast<std::int64_t>(matrix.nnz());
  return device_bytes_needed(size, value_bytes);
}

template <class T>
SpmvProblem<T>::SpmvProblem(const CsrMatrix& matrix, std::uint64_t seed, std::int64_t integer_bound)
    : matrix_(matrix),
      value_kind_(integer_bound > 0 ? ValueKind::integer : ValueKind::real),
      x_(integer_bound > 0 ? make_integer_x(static_cast<std::size_t>(matrix.cols), integer_bound, seed)
                           : make_x(static_cast<std::size_t>(matrix.cols), seed)),
      offsets_(matrix.offsets),
      columns_(matrix.columns),
      values_(converted<T>(matrix.values)),
      x_device_(converted<T>(x_)),
      y_(static_cast<std::size_t>(matrix.rows)),
      view_{matrix.rows,
            matrix.cols,
            static_cast<std::int64_t>(matrix.nnz()),
            offsets_.data(),
            columns_.data(),
            values_.data(),
            longest_row(matrix),
            columns_are_banded(near_diagonal_share(matrix))},
      workspace_(matrix.nnz() + static_cast<std::size_t>(matrix.rows), sizeof(T),
                 make_cusparse_state<T>(view_, x_device_.data(), y_.data())) {
  spmv_reference<T>(matrix_, x_, want_, &scale_);
}

template <class T>
std::string SpmvProblem<T>::element_type() const {
  return std::string(sizeof(T) == 4 ? "float32" : "float64") + " nonzeros, " + matrix_.description;
}

template <class T>
double SpmvProblem<T>::bytes_moved() const {
  const double nnz = static_cast<double>(matrix_.nnz());
  return nnz * (sizeof(T) + 4.0) + 4.0 * (matrix_.rows + 1.0) +
         static_cast<double>(sizeof(T)) * (static_cast<double>(matrix_.cols) + matrix_.rows);
}

template <class T>
void SpmvProblem<T>::poison_output() {
  poison(y_);
}

template <class T>
Check SpmvProblem<T>::check_output() {
  return check_y(y_.download(), want_, scale_, value_kind_);
}

template <class T>
void SpmvProblem<T>::run_cpu_reference() {
  spmv_reference<T>(matrix_, x_, scratch_);
}

template <class T>
void SpmvProblem<T>::launch(const SpmvStage<T>& stage, const LaunchShape& shape, cudaStream_t stream) {
  stage.launch(view_, x_device_.data(), y_.data(), workspace_, shape, stream);
}

std::vector<std::string> matrix_notes(const CsrMatrix& matrix, bool wide_values, std::int64_t integer_bound) {
  const std::int32_t longest = longest_row(matrix);
  const double mean = matrix.rows > 0 ? static_cast<double>(matrix.nnz()) / matrix.rows : 0.0;
  std::vector<std::string> notes;
  notes.push_back(matrix.description + ": " + format_count(static_cast<std::uint64_t>(matrix.rows)) + " rows x " +
                  format_count(static_cast<std::uint64_t>(matrix.cols)) + " columns, " + format_count(matrix.nnz()) +
                  " nonzeros (n), mean row " + format_fixed(mean, 2) + ", longest " + std::to_string(longest));
  const StageLabel vector = analyzed_stages(spmv_stages<float>()).vector;
  notes.push_back("stage " + std::to_string(vector.number) + " (" + vector.name + ") gives each row " +
                  std::to_string(vector_lanes_for(mean)) +
                  " lanes unless its shape says otherwise; GFLOP/s counts 2 flops per nonzero");
  const std::string type = wide_values ? "float64" : "float32";
  if (integer_bound > 0) {
    const std::string m = std::to_string(integer_bound);
    notes.push_back("--values integer: the values and x are integers in [-" + m + ", " + m +
                    "] without 0, and the longest row x " + m + "^2 = " +
                    format_count(static_cast<std::uint64_t>(longest) * static_cast<std::uint64_t>(integer_bound) *
                                 static_cast<std::uint64_t>(integer_bound)) +
                    " <= " + (wide_values ? "2^53" : "2^24") + ", so every partial sum of a row is an integer " + type +
                    " holds exactly: y must equal the double-precision reference exactly, in any summation order");
  } else {
    notes.push_back(std::string("checked against a double-precision reference: |y - want| <= ") +
                    (wide_values ? "2^-53" : "2^-24") +
                    " x (row length + 2) x sum |a x| per row (the bound of any summation order; --values integer "
                    "checks exactly)");
    // Which rows give the same bits from run to run, by their deterministic trait (exact integers
    // are the same bits in every row, so this is said of real values only).
    const auto& table = spmv_stages<float>();
    const auto rows_where = [&](bool deterministic) {
      std::vector<std::string> rows;
      const std::vector<int> numbers = kernel_numbers_where(
          table, [&](const SpmvStage<float>& stage) { return stage.traits.deterministic == deterministic; });
      if (!numbers.empty()) rows.push_back(describe_stage_numbers(numbers));
      for (const SpmvStage<float>& stage : table)
        if (stage.kind == RowKind::library && stage.traits.deterministic == deterministic) rows.push_back(stage.name);
      return join_words(rows, "and");
    };
    notes.push_back("the same bits from run to run: " + rows_where(true) +
                    " (a summation order fixed by the matrix and the shape); " + rows_where(false) +
                    " may differ in the last bits (floating-point atomics in a stage, no such promise from the "
                    "library)");
  }
  notes.push_back("cuSPARSE: handle, buffers and cusparseSpMV_preprocess made once before timing");
  return notes;
}

template class SpmvProblem<float>;
template class SpmvProblem<double>;

}  // namespace stepwise::spmv
