// The second library row: thrust::merge, or thrust::merge_by_key for key-value pairs, on the
// same buffers, through the same timing and checks. Thrust's CUDA backend calls CUB's merge
// kernels, with 32-bit offsets when the sizes allow (the CUB row always uses 64-bit ones), so
// the two rows differ by that and by Thrust's own overhead. Thrust's temporary storage comes
// from the chapter's workspace through an allocator, and par_nosync keeps the call
// asynchronous: the launcher allocates nothing and never waits.
#include <thrust/execution_policy.h>
#include <thrust/merge.h>

#include <stdexcept>
#include <string>

#include "host/check.hpp"
#include "merge.cuh"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

/// Hands Thrust the chapter's workspace as its temporary storage (one allocation at a time).
class WorkspaceAllocator {
 public:
  using value_type = char;
  explicit WorkspaceAllocator(Workspace& workspace) : workspace_(&workspace) {}
  char* allocate(std::ptrdiff_t bytes) {
    workspace_->require(static_cast<std::size_t>(bytes));
    return reinterpret_cast<char*>(workspace_->data());
  }
  void deallocate(char*, std::size_t) {}

 private:
  Workspace* workspace_;
};

template <class K>
void launch(const K* a_keys, const Value* a_values, const K* b_keys, const Value* b_values, K* out_keys,
            Value* out_values, std::size_t a_count, std::size_t b_count, Workspace& workspace, const LaunchShape&,
            cudaStream_t stream) {
  const bool pairs = merges_pairs(a_values, b_values, out_values, a_count, b_count);
  if (a_count + b_count == 0) return;
  WorkspaceAllocator allocator(workspace);
  const auto policy = thrust::cuda::par_nosync(allocator).on(stream);
  if (pairs)
    thrust::merge_by_key(policy, a_keys, a_keys + a_count, b_keys, b_keys + b_count, a_values, b_values, out_keys,
                         out_values);
  else
    thrust::merge(policy, a_keys, a_keys + a_count, b_keys, b_keys + b_count, out_keys);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class K>
MergeStage<K> merge_library_thrust() {
  MergeStage<K> stage;
  stage.name = "thrust::merge";
  stage.lesson = "thrust::merge (merge_by_key with --pairs): CUB's kernels, 32-bit offsets where they fit";
  stage.kind = RowKind::library;
  stage.launch = launch<K>;
  return stage;
}

MERGE_STAGE_ROWS(merge_library_thrust);

}  // namespace stepwise::merge
