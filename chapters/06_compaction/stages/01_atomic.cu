// Stage 1, one atomic per kept element (unordered).
//
// The obvious parallel filter: thread i tests element i and, if it passes, takes the next free
// output slot from a global counter, out[atomicAdd(count, 1)] = element. Correct, and every
// kept element lands somewhere in out[0, count), but in whatever order the atomics happen to
// be served: the output is a permutation of the stable compaction, different from run to run.
// Every atomic goes to the same address, and one L2 slice serves them one after another, so
// this row is bound by that counter, not by memory. (nvcc aggregates a uniform-address
// atomicAdd within each warp by itself, as chapter 05's ticket table showed: the SASS of this
// kernel already votes. What remains is one atomic per warp with anything to keep.)
#include "compaction.cuh"
#include "host/check.hpp"
#include "host/launch.hpp"

namespace stepwise::compaction {
namespace {

template <class Selector>
__global__ void select_atomic(Selector selector, unsigned long long* kept_count, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const auto element = selector.load(i);
  if (selector.keeps(element)) selector.store(atomicAdd(kept_count, 1ull), element);
}

template <class K>
void launch(const SelectArgs<K>& args, Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(args.kept_count, 0, sizeof(*args.kept_count), stream));
  if (args.n == 0) return;
  with_selector(args, [&](auto selector) {
    select_atomic<<<grid_of(ceil_div(args.n, shape.threads)), shape.threads, 0, stream>>>(selector, args.kept_count,
                                                                                          args.n);
    STEPWISE_CHECK_LAUNCH();
  });
}

}  // namespace

template <class K>
SelectStage<K> atomic_per_element() {
  SelectStage<K> stage;
  stage.name = "atomic";
  stage.lesson = "out[atomicAdd(count, 1)] = element: one counter for the grid, order lost";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512, 1024});
  stage.launch = launch<K>;
  stage.traits.keeps_input_order = false;
  stage.traits.cost.counter_atomics = CounterAtomics::per_kept_element;
  return stage;
}

COMPACTION_STAGE_ROWS(atomic_per_element);

}  // namespace stepwise::compaction
