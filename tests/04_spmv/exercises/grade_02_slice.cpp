// The grader of exercise 04-2 (chapters/04_spmv/exercises/README.md): the student's count of the
// nonzeros that find x in stage 2's slice, against the chapter's model (analysis.hpp's slice_share,
// what --analyze prints for stage 2).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "02_slice.hpp"
#include "analysis.hpp"
#include "exercise_checks.hpp"
#include "host/report.hpp"
#include "spmv_inputs.hpp"

using namespace stepwise;
using spmv::CsrMatrix;
using stepwise::testing::Differences;

namespace {

/// Compares @p hits (of @p matrix's nonzeros) with slice_share at @p threads.
void compare_share(Differences& differences, const CsrMatrix& matrix, int threads, std::int64_t hits) {
  const double model = spmv::slice_share(matrix, threads);
  const double yours =
      matrix.nnz() == 0 ? static_cast<double>(hits) : static_cast<double>(hits) / static_cast<double>(matrix.nnz());
  differences.compare(matrix.description + ", blocks of " + std::to_string(threads) + " rows, share in the slice (%)",
                      format_fixed(100.0 * yours, 6), format_fixed(100.0 * model, 6));
}

}  // namespace

TEST_CASE("exercise 04-2: the predictions, blocks of 256 rows") {
  Differences differences;
  for (const char* spec : {"stencil5:2048x2048", "stencil27:16x16x32", "uniform:100000:16"}) {
    CsrMatrix matrix = spmv::generate_matrix(spec, 20261121);
    matrix.description = spec;
    compare_share(differences, matrix, 256, spmv::exercises::slice_hits(matrix, 256));
  }
  differences.check();
}

TEST_CASE("exercise 04-2: every matrix at block sizes from 1 to 1024 rows, against slice_share") {
  Differences differences;
  for (const CsrMatrix& matrix : spmv::grading::spmv_matrices(false))
    for (int threads : {1, 3, 32, 96, 100, 128, 256, 1024})
      compare_share(differences, matrix, threads, spmv::exercises::slice_hits(matrix, threads));
  differences.check();
}
