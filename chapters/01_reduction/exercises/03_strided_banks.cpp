// Exercise 01-3: kernel 2's bank conflicts, stride by stride (README.md, "01-3").
//
// The lesson: kernel 2 (stage 3) packs the adding threads into whole warps, so no warp diverges,
// but lane after lane its words are 2s apart: lanes 32 / 2s apart meet in one bank, and the
// conflict grows with the stride until the working lanes run out.
//
// Predict first: at 256 threads, the degree at s = 1, 2, 4, ..., 128; why no step of a 256-thread
// block passes 8-way; which stride reaches 32-way at 1024 threads. Then write it as a formula of
// stride and block (a loop over the lanes is exercise 01-2's job). Grade it with
// `ctest --test-dir build -L exercise-01`.
#include "03_strided_banks.hpp"

#include "host/exercise.hpp"

namespace stepwise::reduction::exercises {

unsigned strided_conflict_degree([[maybe_unused]] unsigned stride, [[maybe_unused]] unsigned block) {
  // TODO: how many lanes of warp 0 add, and how many of their words share a bank?
  throw NotDoneYet("01-3", "strided_conflict_degree", __FILE__);
}

}  // namespace stepwise::reduction::exercises
