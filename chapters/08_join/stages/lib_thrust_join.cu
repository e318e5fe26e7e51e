// The library row: neither CUB nor Thrust has a join, a vectorized sorted search or a
// load-balancing search, so this is the composition a Thrust user writes from what they have.
// Phase 1: thrust::lower_bound and thrust::upper_bound of every A key in B, and (right and outer
// joins) thrust::binary_search of every B key in A: vectorized binary searches, one per key, as
// in stage 1. Phase 2: the same CUB scan as every stage. Phase 3: thrust::upper_bound of every
// output row index (a counting iterator) in the objects' offsets gives its object (CSR -> COO,
// chapter 03's library row), then thrust::for_each writes each row's pair. The row count stays
// on the device, so phase 3 runs over the capacity and rows past the count write nothing.
// par_nosync keeps every call asynchronous; none of them allocates.
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "join.cuh"

namespace stepwise::join {
namespace {

/// Output row r (below the count and the capacity): its object from the upper bound of r in the
/// offsets, then its pair. Row 0 also writes the row count.
struct WriteRow {
  RowWriter writer;
  const std::int32_t* offsets;
  const std::int32_t* upper_bounds;
  std::int64_t object_count;
  std::int64_t capacity;
  unsigned long long* row_count;
  __device__ void operator()(std::int32_t row) const {
    const std::int32_t total = offsets[object_count];
    if (row == 0) *row_count = static_cast<unsigned long long>(total);
    if (row >= total || row >= capacity) return;
    const std::int32_t object = upper_bounds[row] - 1;
    writer.write(row, object, row - offsets[object]);
  }
};

void launch(const JoinArgs& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  const Scratch scratch = carve(args, workspace);
  const auto policy = thrust::cuda::par_nosync.on(stream);
  const std::int32_t* a_end = args.a_keys + args.a_count;
  const std::int32_t* b_end = args.b_keys + args.b_count;
  thrust::lower_bound(policy, args.b_keys, b_end, args.a_keys, a_end, scratch.lower);
  thrust::upper_bound(policy, args.b_keys, b_end, args.a_keys, a_end, scratch.upper);
  if (keeps_unmatched_b(args.kind))
    thrust::binary_search(policy, args.a_keys, a_end, args.b_keys, b_end, scratch.b_matched);
  STEPWISE_CHECK_LAUNCH();
  scan_row_counts(args, scratch, stream);
  const auto objects = static_cast<std::int64_t>(object_count_of(args));
  const thrust::counting_iterator<std::int32_t> first(0);
  const thrust::counting_iterator<std::int32_t> capacity(static_cast<std::int32_t>(args.capacity));
  if (objects > 0)
    thrust::upper_bound(policy, scratch.offsets, scratch.offsets + objects, first, capacity, scratch.row_objects);
  const thrust::counting_iterator<std::int32_t> last(
      static_cast<std::int32_t>(std::max<std::size_t>(1, args.capacity)));
  thrust::for_each(policy, first, last,
                   WriteRow{row_writer_of(args, scratch), scratch.offsets, scratch.row_objects, objects,
                            static_cast<std::int64_t>(args.capacity), args.row_count});
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

JoinStage join_library_thrust() {
  JoinStage stage;
  stage.name = "thrust bounds+scan+upper_bound";
  stage.lesson = "thrust::lower_bound/upper_bound/binary_search, CUB's scan, thrust::upper_bound per row, for_each";
  stage.kind = RowKind::library;
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::join
