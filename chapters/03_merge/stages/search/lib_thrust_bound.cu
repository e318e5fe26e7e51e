// The library row: the vectorized thrust::lower_bound (thrust::upper_bound with --bound upper):
// for every needle, one binary search of the haystack, the algorithm of search stage 1, on the
// same buffers through the same timing and checks. Thrust writes each bound (a difference of
// iterators) into the int32 output. No temporary storage; par_nosync keeps it asynchronous.
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>

#include "host/check.hpp"
#include "merge.cuh"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

template <class K>
void launch(const K* needles, const K* haystack, std::int32_t* out, std::size_t needle_count,
            std::size_t haystack_count, Bounds bounds, Workspace&, const LaunchShape&, cudaStream_t stream) {
  require_indexed(haystack_count, "the haystack's length");
  if (needle_count == 0) return;
  const auto policy = thrust::cuda::par_nosync.on(stream);
  if (bounds == Bounds::upper)
    thrust::upper_bound(policy, haystack, haystack + haystack_count, needles, needles + needle_count, out);
  else
    thrust::lower_bound(policy, haystack, haystack + haystack_count, needles, needles + needle_count, out);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class K>
SearchStage<K> search_library_thrust() {
  SearchStage<K> stage;
  stage.name = "thrust::lower_bound";
  stage.lesson = "vectorized thrust::lower_bound (upper_bound with --bound upper): a binary search per needle";
  stage.kind = RowKind::library;
  stage.launch = launch<K>;
  return stage;
}

SEARCH_STAGE_ROWS(search_library_thrust);

}  // namespace stepwise::merge
