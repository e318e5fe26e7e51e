// Exercise 04-2: what stage 2's slice of x holds (README.md, "04-2").
//
// The lesson: the lecture's shared-memory cache copies, for a block of NT rows, the NT values of
// x on the block's diagonal, and pays a barrier and a compare per nonzero for it. It helps only
// the nonzeros whose column falls in that slice: a question of the matrix's shape (how far from
// the diagonal its columns lie), which the row and column indices answer before any run.
//
// Predict first: with blocks of 256 rows, the share of nonzeros in the slice for the 5-point
// stencil on a 2048 x 2048 grid (a row's neighbours are 1 and 2048 columns away), the 27-point
// stencil on 16 x 16 x 32 (1, 16 and 256 columns away) and a uniform random matrix. Then write
// the count. Grade it with `ctest --test-dir build -L exercise-04`.
#include "02_slice.hpp"

#include "host/exercise.hpp"

namespace stepwise::spmv::exercises {

std::int64_t slice_hits([[maybe_unused]] const CsrMatrix& matrix, [[maybe_unused]] int threads_per_block) {
  // TODO: for each row, its block's slice [begin, end) of columns; count the row's columns inside.
  throw NotDoneYet("04-2", "slice_hits", __FILE__);
}

}  // namespace stepwise::spmv::exercises
