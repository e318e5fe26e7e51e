/// @file thrust_sort.cuh
/// What the two thrust rows (the radix table's and the merge table's) share: the call of
/// thrust::stable_sort on the chapter's buffers, which differ only in the comparator that picks
/// Thrust's algorithm, and the allocator that hands Thrust the chapter's workspace, so that the
/// rows allocate nothing while they are timed.
#pragma once

#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "host/check.hpp"
#include "host/workspace.hpp"
#include "host/workspace_allocator.hpp"
#include "sort.hpp"

namespace stepwise::sort {

/// Sorts @p args stably with Thrust and @p comp: thrust::stable_sort, or stable_sort_by_key with
/// pairs. Thrust sorts in place, so the input is first copied to the output (the copies are part
/// of the row's time); its temporary storage comes from @p workspace through WorkspaceAllocator.
/// The comparator is the row's lesson: with thrust::less<K> on arithmetic keys Thrust runs CUB's
/// radix sort, with any other it runs CUB's merge sort.
template <class K, class Comp>
void thrust_stable_sort(const SortArgs<K>& args, Workspace& workspace, Comp comp, cudaStream_t stream) {
  if (args.n == 0) return;
  STEPWISE_CUDA_CHECK(
      cudaMemcpyAsync(args.keys_out, args.keys_in, args.n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
  std::size_t used = 0;
  WorkspaceAllocator allocator(workspace, used);
  const auto policy = thrust::cuda::par_nosync(allocator).on(stream);
  if (args.values_in != nullptr) {
    STEPWISE_CUDA_CHECK(
        cudaMemcpyAsync(args.values_out, args.values_in, args.n * sizeof(Value), cudaMemcpyDeviceToDevice, stream));
    thrust::stable_sort_by_key(policy, args.keys_out, args.keys_out + args.n, args.values_out, comp);
  } else {
    thrust::stable_sort(policy, args.keys_out, args.keys_out + args.n, comp);
  }
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace stepwise::sort
