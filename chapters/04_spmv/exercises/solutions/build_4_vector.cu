// Exercise 04-4, solved: the solution is the chapter's stage 3 itself (stages/03_vector.cu), whose
// kernel spmv_lanes_per_row gives row thread / L to each group of L lanes, walks the row with lane k
// taking nonzeros k, k + L, k + 2L, ..., keeps the lanes past the last row in the loop (an empty one)
// so that every lane reaches the shuffles, sums the L partial sums with __shfl_down_sync in log2(L)
// steps of width L, and lets the group's first lane store y. Read it.
#include "build_4_vector.hpp"

namespace stepwise::spmv::exercises {

template <class T>
SpmvStage<T> exercise_04_4_stage() {
  return spmv_vector<T>();
}

SPMV_STAGE_ROWS(exercise_04_4_stage);

}  // namespace stepwise::spmv::exercises
