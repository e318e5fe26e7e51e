// Search stage 1, a binary search per needle.
//
// Thread i searches needle i in the whole haystack: the lower (or upper) bound, ceil(log2(|B| + 1))
// dependent reads of the haystack in global memory, O(|A| log |B|) work. It ignores that the
// needles are sorted, which is why it also works when they are not, and it is what the
// vectorized thrust::lower_bound does. Sorted needles help it anyway: neighbouring threads walk
// nearly the same path down the search tree, so the first levels stay in L1 and L2 and the
// reads that reach DRAM are the last few levels of each search.
#include "algorithm/merge_path.hpp"
#include "merge.cuh"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

template <Bounds bounds, class K>
__global__ void search_each(const K* __restrict__ needles, const K* __restrict__ haystack,
                            std::int32_t* __restrict__ out, std::int64_t needle_count, std::int64_t haystack_count) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < needle_count)
    out[i] = static_cast<std::int32_t>(search_bound<bounds>(haystack, haystack_count, needles[i], Less{}));
}

template <class K>
void launch(const K* needles, const K* haystack, std::int32_t* out, std::size_t needle_count,
            std::size_t haystack_count, Bounds bounds, Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  require_indexed(haystack_count, "the haystack's length");
  if (needle_count == 0) return;
  const unsigned grid = grid_of(ceil_div(needle_count, shape.threads));
  const auto nn = static_cast<std::int64_t>(needle_count);
  const auto nh = static_cast<std::int64_t>(haystack_count);
  if (bounds == Bounds::upper)
    search_each<Bounds::upper, K><<<grid, shape.threads, 0, stream>>>(needles, haystack, out, nn, nh);
  else
    search_each<Bounds::lower, K><<<grid, shape.threads, 0, stream>>>(needles, haystack, out, nn, nh);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class K>
SearchStage<K> search_binary() {
  SearchStage<K> stage;
  stage.name = "binary-search";
  stage.lesson = "one thread per needle, a binary search of the whole haystack in global memory: O(A log B)";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512});
  stage.traits.work = Work::per_element_search;
  stage.launch = launch<K>;
  return stage;
}

SEARCH_STAGE_ROWS(search_binary);

}  // namespace stepwise::merge
