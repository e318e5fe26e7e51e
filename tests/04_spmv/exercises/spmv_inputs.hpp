// The matrices the chapter 04 exercise graders try: the lecture's, the merge-walk diagram's, no rows,
// empty rows, one row, stencils, uniform, R-MAT and huge-row matrices from the chapter's generators.
#pragma once

#include <string>
#include <vector>

#include "generators.hpp"
#include "matrix.hpp"

namespace stepwise::spmv::grading {

/// The matrix of @p rows rows and @p cols columns without a nonzero.
inline CsrMatrix empty_matrix(std::int32_t rows, std::int32_t cols) {
  CsrMatrix matrix;
  matrix.rows = rows;
  matrix.cols = cols;
  matrix.offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  matrix.description = std::to_string(rows) + " x " + std::to_string(cols) + ", no nonzeros";
  return matrix;
}

/// The matrices every chapter 04 grader runs, each named by its spec: the small ones first.
/// @p small_only keeps those of at most 64 merge items (the walk --analyze shows item by item).
inline std::vector<CsrMatrix> spmv_matrices(bool small_only) {
  const char* small[] = {"lecture",     "huge-row:8:3:20", "rmat:4:3",     "rmat:4:2",       "uniform:20:0",
                         "uniform:6:5", "uniform:1x40:40", "stencil5:4x3", "huge-row:5:1:30"};
  const char* large[] = {"uniform:33:1",  "uniform:100:0",  "uniform:1000:16",     "uniform:3000x77:3",
                         "stencil5:40x7", "stencil5:64x64", "stencil27:6x6x6",     "stencil27:16x16x32",
                         "rmat:10:8",     "rmat:12:4",      "huge-row:300:4:2000", "huge-row:2000:3:9000"};
  std::vector<CsrMatrix> matrices = {empty_matrix(0, 5)};
  for (const char* spec : small) {
    matrices.push_back(generate_matrix(spec, 20261127));
    matrices.back().description = spec;
  }
  if (small_only) return matrices;
  for (const char* spec : large) {
    matrices.push_back(generate_matrix(spec, 20261127));
    matrices.back().description = spec;
  }
  return matrices;
}

}  // namespace stepwise::spmv::grading
