// Exercise 01-2: the bank conflict of one warp-wide access (README.md, "01-2").
//
// The lesson: shared memory has 32 banks of 4-byte words, word w in bank w % 32, and each bank
// serves one word per wavefront. A warp-wide access takes as many wavefronts as the bank that
// must serve the most DIFFERENT words; lanes reading the same word are served by one broadcast.
// Kernel 2's stride (stage 3) makes 2s lanes of a warp share a bank: this function is what counts it.
//
// Predict first: the words 0, 32, 64 (3 lanes); 5, 5, 5, 5; 0, 2, 4, ..., 62 (32 lanes). Then
// write the function. Grade it with `ctest --test-dir build -L exercise-01`.
#include "02_banks.hpp"

#include "host/exercise.hpp"

namespace stepwise::reduction::exercises {

unsigned warp_conflict_degree([[maybe_unused]] const std::vector<unsigned>& words) {
  // TODO: the most distinct words that fall in one bank.
  throw NotDoneYet("01-2", "warp_conflict_degree", __FILE__);
}

}  // namespace stepwise::reduction::exercises
