// The radix table's thrust row: thrust::stable_sort (stable_sort_by_key with pairs) with
// thrust::less<K>. For arithmetic keys and less<> or greater<>, Thrust does not compare at all:
// it calls CUB's radix sort (the same ordered bits, -0.0 as +0.0), so this row differs from the
// CUB row by what Thrust adds around it. The call, the copy of the input to the output that
// Thrust's in-place sort needs, and the workspace allocator are thrust_sort.cuh's, shared with
// the merge table's row; this row differs only in the comparator.
#include <thrust/functional.h>

#include "sort.hpp"
#include "thrust_sort.cuh"

namespace stepwise::sort {
namespace {

template <class K>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  thrust_stable_sort(args, workspace, thrust::less<K>(), stream);
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
