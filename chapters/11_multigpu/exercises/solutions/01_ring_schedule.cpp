// Exercise 11-1, solved: reduce-scatter step s sends chunk g - s and receives g - s - 1; the
// all-gather's step s sends g - s + 1 (the chunk g finished, first) and receives g - s, all mod G.
#include "01_ring_schedule.hpp"

namespace stepwise::multigpu::exercises {

RingStep predicted_ring_step(int gpu, int gpus, int step) {
  const auto mod = [gpus](int chunk) { return ((chunk % gpus) + gpus) % gpus; };
  RingStep result;
  result.reduce = step < gpus - 1;
  if (result.reduce) {
    result.send_chunk = mod(gpu - step);
    result.receive_chunk = mod(gpu - step - 1);
  } else {
    const int s = step - (gpus - 1);
    result.send_chunk = mod(gpu - s + 1);
    result.receive_chunk = mod(gpu - s);
  }
  return result;
}

}  // namespace stepwise::multigpu::exercises
