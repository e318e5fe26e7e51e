// The merge table's thrust row: thrust::stable_sort (stable_sort_by_key with pairs) with a
// comparator on ordered_bits. With a comparator Thrust cannot know that a key can be cut into
// digits, so it runs CUB's merge sort instead of its radix sort. The call, the copy of the input
// to the output that Thrust's in-place sort needs, and the workspace allocator are
// thrust_sort.cuh's, shared with the radix table's row; this row differs only in the comparator.
#include "sort.hpp"
#include "thrust_sort.cuh"

namespace stepwise::sort {
namespace {

template <class K>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  thrust_stable_sort(args, workspace, OrderedLess<K>{}, stream);
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
