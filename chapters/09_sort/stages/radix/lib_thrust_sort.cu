// The radix table's thrust row: thrust::stable_sort (stable_sort_by_key with pairs) with
// thrust::less<K>. For arithmetic keys and less<> or greater<>, Thrust does not compare at all:
// it calls CUB's radix sort (the same ordered bits, -0.0 as +0.0), so this row differs from the
// CUB row by what Thrust adds around it. Thrust sorts in place: the row copies the input to the
// output first (counted in its time), and takes its temporary storage from the workspace through
// WorkspaceAllocator, so nothing is allocated while it is timed.
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
    thrust::stable_sort_by_key(policy, args.keys_out, args.keys_out + args.n, args.values_out, thrust::less<K>());
  } else {
    thrust::stable_sort(policy, args.keys_out, args.keys_out + args.n, thrust::less<K>());
  }
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class K>
SortStage<K> library_thrust_radix() {
  SortStage<K> stage;
  stage.name = "thrust::stable_sort";
  stage.lesson = "thrust::stable_sort with less<>: Thrust picks CUB's radix sort for arithmetic keys";
  stage.kind = RowKind::library;
  stage.launch = launch<K>;
  stage.traits.algorithm = Algorithm::radix;
  return stage;
}

SORT_STAGE_ROWS(library_thrust_radix);

}  // namespace stepwise::sort
