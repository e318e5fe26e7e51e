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
#include "host/workspace_allocator.hpp"
#include "setop.hpp"

namespace stepwise::segmented {
namespace {

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
