// The library row: no library has a load-balancing search, so this is the composition a Thrust
// user writes for CSR -> COO: thrust::upper_bound of every item index (a counting iterator) in
// the offsets (the vectorized binary search of stage 1: one search per item), then
// thrust::for_each turns each upper bound u into the object u - 1 and the rank i - offsets[u - 1].
// Two passes over the items (the second reads back what the first wrote), no temporary storage;
// par_nosync keeps both calls asynchronous.
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include "host/check.hpp"
#include "merge.cuh"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

/// Item i's upper bound (in objects[i]) to its object and rank.
struct BoundToObjectAndRank {
  const std::int32_t* offsets;
  std::int32_t* objects;
  std::int32_t* ranks;
  __device__ void operator()(std::int32_t item) const {
    const std::int32_t object = objects[item] - 1;
    objects[item] = object;
    ranks[item] = item - offsets[object];
  }
};

void launch(const std::int32_t* offsets, std::int32_t* objects, std::int32_t* ranks, std::size_t object_count,
            std::size_t item_count, Workspace&, const LaunchShape&, cudaStream_t stream) {
  require_indexed(object_count, "the number of objects");
  require_indexed(item_count, "the number of items");
  if (item_count == 0) return;
  if (object_count == 0) throw std::invalid_argument("items need at least one object");
  const auto policy = thrust::cuda::par_nosync.on(stream);
  const thrust::counting_iterator<std::int32_t> first(0);
  const thrust::counting_iterator<std::int32_t> last(static_cast<std::int32_t>(item_count));
  thrust::upper_bound(policy, offsets, offsets + object_count, first, last, objects);
  thrust::for_each(policy, first, last, BoundToObjectAndRank{offsets, objects, ranks});
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

LbsStage lbs_library_thrust() {
  LbsStage stage;
  stage.name = "thrust::upper_bound+for_each";
  stage.lesson = "the library composition for CSR -> COO: thrust::upper_bound per item, then object and rank";
  stage.kind = RowKind::library;
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::merge
