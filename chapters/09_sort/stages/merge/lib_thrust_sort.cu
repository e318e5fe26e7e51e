// The merge table's thrust row: thrust::stable_sort (stable_sort_by_key with pairs) with a
// comparator on ordered_bits. With a comparator Thrust cannot know that a key can be cut into
// digits, so it runs CUB's merge sort instead of its radix sort. Thrust sorts in place: the row
// copies the input to the output first (counted in its time), and takes its temporary storage
// from the workspace through WorkspaceAllocator, so nothing is allocated while it is timed.
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>

#include "host/check.hpp"
#include "sort.hpp"
#include "thrust_allocator.cuh"

namespace stepwise::sort {
namespace {

template <class K>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  if (args.n == 0) return;
  STEPWISE_CUDA_CHECK(
      cudaMemcpyAsync(args.keys_out, args.keys_in, args.n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
  std::size_t used = 0;
  WorkspaceAllocator allocator(workspace, used);
  const auto policy = thrust::cuda::par_nosync(allocator).on(stream);
  if (args.values_in != nullptr) {
    STEPWISE_CUDA_CHECK(
        cudaMemcpyAsync(args.values_out, args.values_in, args.n * sizeof(Value), cudaMemcpyDeviceToDevice, stream));
    thrust::stable_sort_by_key(policy, args.keys_out, args.keys_out + args.n, args.values_out, OrderedLess<K>{});
  } else {
    thrust::stable_sort(policy, args.keys_out, args.keys_out + args.n, OrderedLess<K>{});
  }
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class K>
SortStage<K> library_thrust_merge() {
  SortStage<K> stage;
  stage.name = "thrust::stable_sort";
  stage.lesson = "thrust::stable_sort with a comparator: Thrust falls back to CUB's merge sort";
  stage.kind = RowKind::library;
  stage.launch = launch<K>;
  stage.traits.algorithm = Algorithm::merge;
  return stage;
}

SORT_STAGE_ROWS(library_thrust_merge);

}  // namespace stepwise::sort
