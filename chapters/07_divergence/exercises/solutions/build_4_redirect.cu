// Exercise 07-4, solved: the solution is the chapter's stage 3 itself (stages/03_redirect.cu), whose
// step redirected_step (divergence.cuh) runs classify (keys[i] = element i's path, indices[i] = i),
// sort_by_path, and apply_redirected: thread t takes i = order[t], reads src[i], and writes
// dst[i] = work.apply(src[i], its path, i, step), in place. Read both.
#include "build_4_redirect.hpp"

namespace stepwise::divergence::exercises {

template <class W>
DivergeStage<W> exercise_07_4_stage() {
  return redirect<W>();
}

DIVERGENCE_STAGE_ROWS(exercise_07_4_stage);

}  // namespace stepwise::divergence::exercises
