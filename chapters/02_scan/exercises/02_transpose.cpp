// Exercise 02-2: the transpose's bank conflicts, by access width (README.md, "02-2").
//
// The lesson: in the thread-order read lane l touches word l*VT + i, so lanes 32 / gcd(VT, 32)
// apart share a bank: Baxter's rule, "choose an odd VT". But a warp-wide access is served 128 bytes
// at a time: all 32 lanes of a 32-bit access, 16 of a 64-bit one, 8 of a 128-bit one, and only
// lanes served together can conflict. The width the compiler picks changes the count.
//
// Predict first: VT = 8 and VT = 12 at 128 threads, with 32-bit and with 128-bit accesses: the
// degree and the conflicts per tile. How many conflicts does Nsight Compute count in stage 4's
// downsweep at 2^24 (16,384 tiles of 128 x 8), read as two LDS.128 per thread? Then write the
// function. Grade it with `ctest --test-dir build -L exercise-02`.
#include "02_transpose.hpp"

#include "host/exercise.hpp"

namespace stepwise::scan::exercises {

TransposePrediction predict_transpose([[maybe_unused]] int nt, [[maybe_unused]] int vt,
                                      [[maybe_unused]] int width_words) {
  // TODO: which lanes are served together, and how many distinct words does one bank get among them?
  throw NotDoneYet("02-2", "predict_transpose", __FILE__);
}

}  // namespace stepwise::scan::exercises
