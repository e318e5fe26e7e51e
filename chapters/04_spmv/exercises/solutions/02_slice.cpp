// Exercise 04-2, solved: row r is in block r / NT, whose slice is the columns [b NT, min((b + 1) NT,
// cols)); a nonzero hits when its column lies in its row's slice.
#include "02_slice.hpp"

#include <algorithm>

namespace stepwise::spmv::exercises {

std::int64_t slice_hits(const CsrMatrix& matrix, int threads_per_block) {
  std::int64_t hits = 0;
  for (std::int32_t row = 0; row < matrix.rows; ++row) {
    const std::int64_t begin = static_cast<std::int64_t>(row) / threads_per_block * threads_per_block;
    const std::int64_t end = std::min<std::int64_t>(begin + threads_per_block, matrix.cols);
    for (std::int32_t j = matrix.offsets[static_cast<std::size_t>(row)];
         j < matrix.offsets[static_cast<std::size_t>(row) + 1]; ++j) {
      const std::int64_t column = matrix.columns[static_cast<std::size_t>(j)];
      if (column >= begin && column < end) ++hits;
    }
  }
  return hits;
}

}  // namespace stepwise::spmv::exercises
