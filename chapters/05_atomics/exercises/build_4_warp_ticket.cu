// Exercise 05-4: build stage 2 of the ticket table, the warp-aggregated counter, from stage 1
// (README.md, "05-4").
//
// Stage 2's lesson (stages/ticket/02_warp_aggregated.cu): one atomicAdd per warp instead of one
// per kept value. The lanes that keep a value vote (__ballot_sync), the lowest of them adds the
// number of voters (__popc) to the counter, broadcasts the base it got back (__shfl_sync), and each
// lane writes at base + the number of voters below it. That is what nvcc already makes of stage 1's
// atomicAdd on one address (the lecture's SASS), so the two time alike; written by hand, the base
// can serve several stores per lane (chapter 06).
//
// Start from stage 1 (stages/ticket/01_naive.cu), whose kernel does
// `if (keeps(value)) out[atomicAdd(counter, 1ull)] = value;` in each lane. Write ticket_warp below
// by hand, without common's warp_ticket: the launcher and the row are written. Then delete the
// first line of exercise_05_4_stage() and grade it on a GPU with
// `ctest --test-dir build -R exercise-05-4 --output-on-failure`.
#include "build_4_warp_ticket.hpp"
#include "host/check.hpp"
#include "host/exercise.hpp"
#include "host/launch.hpp"

namespace stepwise::atomics::exercises {
namespace {

/// Writes the values of @p in[0, n) that keeps() keeps to @p out[0, count), in any order, each
/// once, and leaves count in @p counter (zeroed by the launcher): one atomicAdd per warp.
__global__ void ticket_warp(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out,
                            unsigned long long* __restrict__ counter, std::int64_t n) {
  // TODO: the global index i as in stage 1; every lane of the warp votes, also those past n (keep
  // is false there); the leader (lowest voter) does the warp's one atomicAdd; the base is broadcast;
  // each keeping lane writes at base + its rank among the voters.
}

void launch(const std::int32_t* in, std::int32_t* out, unsigned long long* counter, std::size_t n,
            const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(counter, 0, sizeof(*counter), stream));
  if (n == 0) return;
  ticket_warp<<<grid_of(ceil_div(n, shape.threads)), shape.threads, 0, stream>>>(in, out, counter,
                                                                                 static_cast<std::int64_t>(n));
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

TicketStage exercise_05_4_stage() {
  // Delete the next line once ticket_warp is written: until then the grader stops here.
  not_done_yet("05-4", "ticket_warp", __FILE__);
  TicketStage stage;
  stage.name = "warp-aggregated";
  stage.lesson = "ballot + popc: one atomicAdd per warp, the base broadcast by a shuffle";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512, 1024});
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::atomics::exercises
