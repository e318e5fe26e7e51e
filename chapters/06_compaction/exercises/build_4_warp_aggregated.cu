// Exercise 06-4: build stage 2, the warp-aggregated filter, from stage 1 (README.md, "06-4").
//
// Stage 2's lesson (stages/02_warp_aggregated.cu): the warp votes before it touches the counter.
// The lanes that keep an element __ballot_sync, the lowest of them adds the number of voters
// (__popc) to the counter, the base it got back is broadcast with __shfl_sync, and each lane
// writes at base + its rank among the voters (the voters in the lanes below it). One atomic per
// warp instead of one per kept element, and a warp's kept elements land side by side, so their
// stores coalesce. The counter is still one address for the whole grid.
//
// Start from stage 1 (stages/01_atomic.cu), whose thread i tests element i and stores it at
// atomicAdd(kept_count, 1). Write select_warp_aggregated below with the intrinsics themselves
// (warp_ticket in common/device/warp_aggregate.cuh is the answer: read it after): the launcher and
// the row are written. Then delete the first line of exercise_06_4_stage() and grade it on a GPU
// with `ctest --test-dir build -R exercise-06-4 --output-on-failure`.
#include "build_4_warp_aggregated.hpp"
#include "compaction.cuh"
#include "host/check.hpp"
#include "host/exercise.hpp"
#include "host/launch.hpp"

namespace stepwise::compaction::exercises {
namespace {

/// Keeps the elements of [0, n) that @p selector keeps: each warp takes one run of consecutive
/// slots of the output from @p kept_count with one atomicAdd, and each kept element goes to its
/// warp's base plus its rank among the warp's kept elements. Blocks of 128 to 1024 threads (a
/// multiple of 32); the last warp may run past n.
template <class Selector>
__global__ void select_warp_aggregated(Selector selector, unsigned long long* kept_count, std::size_t n) {
  // TODO: stage 1's load and test, with the lanes past n kept in the warp (they vote "no"); then
  // the ballot, one atomicAdd by the lowest voter, the base broadcast, and the store at base + rank.
}

template <class K>
void launch(const SelectArgs<K>& args, Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(args.kept_count, 0, sizeof(*args.kept_count), stream));
  if (args.n == 0) return;
  with_selector(args, [&](auto selector) {
    select_warp_aggregated<<<grid_of(ceil_div(args.n, shape.threads)), shape.threads, 0, stream>>>(
        selector, args.kept_count, args.n);
    STEPWISE_CHECK_LAUNCH();
  });
}

}  // namespace

template <class K>
SelectStage<K> exercise_06_4_stage() {
  // Delete the next line once select_warp_aggregated is written: until then the grader stops here.
  not_done_yet("06-4", "select_warp_aggregated", __FILE__);
  SelectStage<K> stage;
  stage.name = "warp-aggregated";
  stage.lesson = "ballot + popc: one atomicAdd per warp, the base broadcast by a shuffle";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512, 1024});
  stage.launch = launch<K>;
  stage.traits.keeps_input_order = false;
  stage.traits.cost.counter_atomics = CounterAtomics::per_warp;
  return stage;
}

COMPACTION_STAGE_ROWS(exercise_06_4_stage);

}  // namespace stepwise::compaction::exercises
