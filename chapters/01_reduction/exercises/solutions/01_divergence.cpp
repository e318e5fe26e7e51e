// Exercise 01-1, solved: the two tables, worked out from thread_work (addressing.hpp).
//
// Kernel 1: at stride s the adding threads are the multiples of 2s. While 2s <= 32 every warp holds
// 32 / 2s of them and the rest of its lanes idle: all 4 warps work and all 4 diverge. From s = 32 on,
// fewer warps than 4 hold a multiple of 2s (tids 0 and 64, then 0), and each of those diverges too.
// Kernel 3: the first s threads add. At s = 64 and 32 whole warps add (2, then 1) and none diverges;
// from s = 16 on one warp works with s lanes, divergent in every scheme (the steps stage 6 unrolls).
#include "01_divergence.hpp"

namespace stepwise::reduction::exercises {

std::vector<StepCount> predicted_steps(Addressing scheme) {
  if (scheme == Addressing::interleaved_divergent) {
    return {{1, 64, 4, 4}, {2, 32, 4, 4}, {4, 16, 4, 4}, {8, 8, 4, 4}, {16, 4, 4, 4}, {32, 2, 2, 2}, {64, 1, 1, 1}};
  }
  return {{64, 64, 2, 0}, {32, 32, 1, 0}, {16, 16, 1, 1}, {8, 8, 1, 1}, {4, 4, 1, 1}, {2, 2, 1, 1}, {1, 1, 1, 1}};
}

}  // namespace stepwise::reduction::exercises
