// Exercise 03-4, solved: the solution is the chapter's stage 2 itself
// (stages/merge/02_path_per_thread.cu), whose kernel merge_per_thread finds the thread's first
// diagonal, t * VT, runs merge_path on it in global memory, and hands the two cursors to
// serial_merge, which writes out[diagonal + i] (and the value of the side it took). Read it there,
// beside stage 1's.
#include "build_4_path_per_thread.hpp"

namespace stepwise::merge::exercises {

template <class K>
MergeStage<K> exercise_03_4_stage() {
  return merge_path_per_thread<K>();
}

MERGE_STAGE_ROWS(exercise_03_4_stage);

}  // namespace stepwise::merge::exercises
