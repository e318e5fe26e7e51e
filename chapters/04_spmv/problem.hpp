/// @file problem.hpp
/// The chapter's problem: y = A x for one matrix, on the device, with its CPU reference.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/harness.hpp"
#include "matrix.hpp"
#include "spmv.hpp"

namespace stepwise::spmv {

/// Device bytes a run of @p matrix with elements of @p value_bytes needs (matrix, x, y, workspace).
double device_bytes_needed(const CsrMatrix& matrix, std::size_t value_bytes);
/// The same for the matrix @p size describes, before it is built (its nonzeros at most).
double device_bytes_needed(const MatrixSize& size, std::size_t value_bytes);

/// y = A x for one matrix: the matrix, x and y on the device, the double-precision reference
/// and each row's error scale (matrix.hpp's tolerance), and the workspace every row runs in.
template <class T>
class SpmvProblem final : public Problem {
 public:
  /// Copies @p matrix and a seeded x to the device, computes the reference, and prepares
  /// cuSPARSE (needs a GPU). @p matrix must outlive the problem. With @p integer_bound M > 0 (the
  /// matrix's values made integers by make_integer_valued, which returned M), x is integers in
  /// [-M, M] too (make_integer_x) and y must equal the reference exactly (check_y).
  SpmvProblem(const CsrMatrix& matrix, std::uint64_t seed, std::int64_t integer_bound = 0);

  std::string element_type() const override;
  /// Values, column indices and row pointers once, x once, y once: nnz (sizeof(T) + 4) +
  /// 4 (rows + 1) + sizeof(T) (cols + rows). x is counted once although a nonzero's column is
  /// gathered from wherever x sits: the model is the DRAM floor, which reuse of x in L1 and L2
  /// lets a good kernel approach.
  double bytes_moved() const override;
  double flops() const override { return 2.0 * static_cast<double>(matrix_.nnz()); }
  std::uint64_t reported_n(std::uint64_t) const override { return matrix_.nnz(); }
  void poison_output() override;
  Check check_output() override;
  void run_cpu_reference() override;

  /// Runs one row of the table on this problem's buffers.
  void launch(const SpmvStage<T>& stage, const LaunchShape& shape, cudaStream_t stream);
  /// y as the last run left it (after a synchronization), for tests that compare runs bit by bit.
  std::vector<T> download_y() const { return y_.download(); }
  /// The reference y = A x, in double.
  const std::vector<double>& reference() const { return want_; }
  /// Why cuSPARSE refused to prepare @p stage's algorithm for this matrix, or "" (cusparse_refusal).
  std::string library_refusal(const SpmvStage<T>& stage) {
    return cusparse_refusal(workspace_.cusparse(), stage.traits.cusparse);
  }

 private:
  const CsrMatrix& matrix_;
  ValueKind value_kind_;
  std::vector<double> x_;
  std::vector<double> want_, scale_, scratch_;
  DeviceBuffer<std::int32_t> offsets_, columns_;
  DeviceBuffer<T> values_, x_device_, y_;
  CsrView<T> view_;
  SpmvScratch workspace_;
};

/// The report's notes about @p matrix: its size and row lengths, what the vector stage makes of
/// them, how results are checked (exactly with @p integer_bound M > 0, --values integer), and
/// which rows give the same bits from run to run (the deterministic trait).
std::vector<std::string> matrix_notes(const CsrMatrix& matrix, bool wide_values, std::int64_t integer_bound);

}  // namespace stepwise::spmv
