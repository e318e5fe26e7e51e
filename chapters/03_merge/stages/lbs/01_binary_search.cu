// Load-balancing search stage 1, a binary search per item.
//
// Item i belongs to the last object whose offset is at or below i: upper_bound(offsets, i) - 1,
// a binary search of the offsets in global memory per item (ceil(log2(objects + 1)) dependent
// reads), then its rank is i - offsets[object]. O(items log objects) work; like search stage 1,
// neighbouring items walk the same path, so most of those reads hit the caches, and the cost is
// the dependent latency of every search.
#include "algorithm/merge_path.hpp"
#include "merge.cuh"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

__global__ void expand_each(const std::int32_t* __restrict__ offsets, std::int32_t* __restrict__ objects,
                            std::int32_t* __restrict__ ranks, std::int64_t object_count, std::int64_t item_count) {
  const std::int64_t item = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (item >= item_count) return;
  const std::int64_t object = search_bound<Bounds::upper>(offsets, object_count, item, Less{}) - 1;
  objects[item] = static_cast<std::int32_t>(object);
  ranks[item] = static_cast<std::int32_t>(item - offsets[object]);
}

void launch(const std::int32_t* offsets, std::int32_t* objects, std::int32_t* ranks, std::size_t object_count,
            std::size_t item_count, Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  require_indexed(object_count, "the number of objects");
  require_indexed(item_count, "the number of items");
  if (item_count == 0) return;
  if (object_count == 0) throw std::invalid_argument("items need at least one object");
  expand_each<<<grid_of(ceil_div(item_count, shape.threads)), shape.threads, 0, stream>>>(
      offsets, objects, ranks, static_cast<std::int64_t>(object_count), static_cast<std::int64_t>(item_count));
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

LbsStage lbs_binary() {
  LbsStage stage;
  stage.name = "binary-search";
  stage.lesson = "one thread per item: upper bound of its index in the offsets (global memory), minus one";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512});
  stage.traits.work = Work::per_element_search;
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::merge
