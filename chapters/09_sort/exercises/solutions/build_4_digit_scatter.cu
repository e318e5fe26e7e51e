// Exercise 09-4, solved: the solution is the chapter's radix stage 2 itself
// (stages/radix/02_digits.cu), whose kernel scatter_ranked begins one TileDigitRanks per tile, then
// in each of VT rounds loads key first + j * NT + t (a thread past n takes the digit RADIX, which
// ranks nothing and gets 0), calls Ranks::rank with every thread of the block, and stores the key
// (and its value) at offsets[d * gridDim.x + blockIdx.x] + rank. Read both.
#include "build_4_digit_scatter.hpp"

namespace stepwise::sort::exercises {

template <class K>
SortStage<K> exercise_09_4_stage() {
  return radix_digits<K>();
}

SORT_STAGE_ROWS(exercise_09_4_stage);

}  // namespace stepwise::sort::exercises
