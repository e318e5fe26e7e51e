// The library row: thrust::set_intersection, set_union, set_difference or
// set_symmetric_difference on the same inputs, through the same timing and checks. Thrust returns
// the output's end, so it reads the length back to the host before it returns: the row
// synchronizes (the harness times it as such), then copies the length to the row's output count.
// Its temporary storage comes from the workspace through WorkspaceAllocator, so nothing is
// allocated while it is timed; the output was allocated at the bound before.
#include <thrust/execution_policy.h>
#include <thrust/set_operations.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "host/check.hpp"
#include "setop.hpp"

namespace stepwise::segmented {
namespace {

/// Bump allocation over the workspace for `thrust::cuda::par(allocator)` (chapter 09's
/// WorkspaceAllocator): each request takes the next 256-byte aligned bytes, a release gives
/// nothing back; @p used is shared by the allocator's copies.
class WorkspaceAllocator {
 public:
  using value_type = char;

  WorkspaceAllocator(Workspace& workspace, std::size_t& used) : workspace_(&workspace), used_(&used) {}

  /// The next @p bytes of the workspace.
  /// @throws std::invalid_argument when the workspace has no room left.
  char* allocate(std::ptrdiff_t bytes) {
    const std::size_t size = (static_cast<std::size_t>(bytes) + 255) / 256 * 256;
    if (*used_ + size > workspace_->bytes())
      throw std::invalid_argument("thrust asked for " + std::to_string(bytes) + " bytes past the workspace's " +
                                  std::to_string(workspace_->bytes() - *used_) + " free");
    char* pointer = reinterpret_cast<char*>(workspace_->data() + *used_);
    *used_ += size;
    return pointer;
  }
  void deallocate(char*, std::size_t) {}

 private:
  Workspace* workspace_;
  std::size_t* used_;
};

void launch(const SetOpArgs& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  std::size_t used = 0;
  WorkspaceAllocator allocator(workspace, used);
  const auto policy = thrust::cuda::par(allocator).on(stream);
  const SetKey* a_end = args.a + args.a_count;
  const SetKey* b_end = args.b + args.b_count;
  SetKey* end = args.out;
  switch (args.op) {
    case SetOp::intersection:
      end = thrust::set_intersection(policy, args.a, a_end, args.b, b_end, args.out);
      break;
    case SetOp::union_:
      end = thrust::set_union(policy, args.a, a_end, args.b, b_end, args.out);
      break;
    case SetOp::difference:
      end = thrust::set_difference(policy, args.a, a_end, args.b, b_end, args.out);
      break;
    case SetOp::symmetric_difference:
      end = thrust::set_symmetric_difference(policy, args.a, a_end, args.b, b_end, args.out);
      break;
  }
  STEPWISE_CHECK_LAUNCH();
  const std::int64_t count = end - args.out;
  STEPWISE_CUDA_CHECK(cudaMemcpyAsync(args.out_count, &count, sizeof count, cudaMemcpyHostToDevice, stream));
  STEPWISE_CUDA_CHECK(cudaStreamSynchronize(stream));  // count lives on this stack frame
}

}  // namespace

SetOpStage library_thrust_set_op() {
  SetOpStage stage;
  stage.name = "thrust::set_*";
  stage.lesson = "the library on the same data: thrust::set_<op>, which reads the output's length back";
  stage.kind = RowKind::library;
  stage.synchronizes = true;
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::segmented
