// The grader of exercise 11-1 (chapters/11_multigpu/exercises/README.md): the student's ring schedule against
// ring.hpp's ring_step (what the kernels of stages 3 and 4 call) for every GPU and step of rings of 1 to 8 GPUs;
// then the whole all-reduce simulated with the student's schedule alone: each GPU must receive the chunk its left
// neighbour sends, add each GPU's part exactly once, and end with every chunk's whole sum. A planted wrong answer
// (the reduce-scatter receiving the chunk it sends) must fail the same checks.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "01_ring_schedule.hpp"
#include "exercise_checks.hpp"
#include "ring.hpp"

using namespace stepwise;
using namespace stepwise::multigpu;
using stepwise::testing::Differences;

namespace {

/// The most GPUs the chapter runs on (one host: sample_sort.hpp's kMaxGpus).
constexpr int kMostGpus = 8;

using Answer = std::function<RingStep(int, int, int)>;

void grade_steps(Differences& differences, const Answer& answer) {
  for (int gpus = 1; gpus <= kMostGpus; ++gpus)
    for (int step = 0; step < ring_steps(gpus); ++step)
      for (int gpu = 0; gpu < gpus; ++gpu) {
        const RingStep yours = answer(gpu, gpus, step);
        const RingStep model = ring_step(gpu, gpus, step);
        const std::string where =
            std::to_string(gpus) + " GPUs, step " + std::to_string(step) + ", GPU " + std::to_string(gpu);
        differences.compare(where + ", reduces", yours.reduce, model.reduce);
        differences.compare(where + ", receives chunk", yours.receive_chunk, model.receive_chunk);
        differences.compare(where + ", sends chunk", yours.send_chunk, model.send_chunk);
      }
}

/// The all-reduce on G GPUs with the schedule alone: held[g][c] is the set of GPUs whose part of chunk c GPU g's
/// copy sums (a bit each). A step's transfers all read the state before the step, as the ring's do.
void grade_simulation(Differences& differences, const Answer& answer) {
  for (int gpus = 1; gpus <= kMostGpus; ++gpus) {
    const std::string ring = std::to_string(gpus) + " GPUs";
    const std::uint32_t everyone = (1u << gpus) - 1;
    std::vector<std::vector<std::uint32_t>> held(gpus, std::vector<std::uint32_t>(gpus));
    for (int g = 0; g < gpus; ++g)
      for (int c = 0; c < gpus; ++c) held[g][c] = 1u << g;
    for (int step = 0; step < ring_steps(gpus); ++step) {
      std::vector<std::vector<std::uint32_t>> next = held;
      for (int g = 0; g < gpus; ++g) {
        const RingStep mine = answer(g, gpus, step);
        const RingStep left = answer(ring_left(g, gpus), gpus, step);
        const std::string where = ring + ", step " + std::to_string(step) + ", GPU " + std::to_string(g);
        if (mine.receive_chunk < 0 || mine.receive_chunk >= gpus || left.send_chunk < 0 || left.send_chunk >= gpus) {
          differences.add(where + ": a chunk outside 0 .. G - 1");
          continue;
        }
        differences.compare(where + ", the chunk received is the one its left neighbour sends", mine.receive_chunk,
                            left.send_chunk);
        const std::uint32_t incoming = held[ring_left(g, gpus)][left.send_chunk];
        std::uint32_t& chunk = next[g][mine.receive_chunk];
        if (mine.reduce) {
          if ((chunk & incoming) != 0)
            differences.add(where + ": chunk " + std::to_string(mine.receive_chunk) + " adds a GPU's part twice");
          chunk |= incoming;
        } else {
          chunk = incoming;
        }
      }
      held = next;
    }
    for (int g = 0; g < gpus; ++g)
      for (int c = 0; c < gpus; ++c)
        differences.compare(
            ring + ", GPU " + std::to_string(g) + " at the end, chunk " + std::to_string(c) + " sums every GPU's part",
            held[g][c] == everyone, true);
  }
}

/// Planted: the reduce-scatter receives chunk g - s, the one it sends, instead of g - s - 1.
RingStep receives_what_it_sends(int gpu, int gpus, int step) {
  RingStep result = ring_step(gpu, gpus, step);
  if (result.reduce) result.receive_chunk = result.send_chunk;
  return result;
}

}  // namespace

TEST_CASE("exercise 11-1: your schedule is ring_step's for every GPU and step on 1 to 8 GPUs") {
  Differences differences;
  grade_steps(differences, exercises::predicted_ring_step);
  differences.check();
}

TEST_CASE("exercise 11-1: your schedule alone all-reduces every chunk on 1 to 8 GPUs") {
  Differences differences;
  grade_simulation(differences, exercises::predicted_ring_step);
  differences.check();
}

TEST_CASE("exercise 11-1: the grader fails a planted wrong answer (receiving the chunk it sends)") {
  Differences steps;
  grade_steps(steps, receives_what_it_sends);
  CHECK(steps.count() > 0);
  Differences simulation;
  grade_simulation(simulation, receives_what_it_sends);
  CHECK(simulation.count() > 0);
  Differences model;
  grade_simulation(model, ring_step);
  CHECK(model.count() == 0);
}
