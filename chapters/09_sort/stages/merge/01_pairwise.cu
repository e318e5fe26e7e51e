// Merge stage 1, pairwise passes: every element finds its place by a binary search.
//
// The plainest merge sort: runs of length 1 are sorted, and pass p merges neighbouring runs of
// 2^p elements into runs of 2^(p+1), until one run is left: ceil(log2 n) passes. Each pass is
// one kernel with one thread per element (chapter 03's stage 1): an element's place in the
// merged run is its place in its own run plus the number of elements of the other run that go
// before it, a binary search. Stability is the tie rule: an element of the left run counts the
// right run's elements that are smaller (lower bound), one of the right run those that are
// smaller or equal (upper bound), so equal keys keep their input order. The cost is the lesson:
// log2 n passes over the data, each with log2(run) dependent loads per element.
#include "host/check.hpp"
#include "host/launch.hpp"
#include "sort.hpp"

namespace stepwise::sort {
namespace {

/// The first index of [first, last) whose key goes after @p bits (@p after_equal: equal keys
/// count as before it, the upper bound; else the lower bound).
template <class K>
__device__ std::size_t search(const K* keys, std::size_t first, std::size_t last, OrderedBits<K> bits,
                              bool after_equal) {
  while (first < last) {
    const std::size_t middle = first + (last - first) / 2;
    const OrderedBits<K> probe = ordered_bits(keys[middle]);
    if (probe < bits || (after_equal && probe == bits))
      first = middle + 1;
    else
      last = middle;
  }
  return first;
}

/// One pass: merges runs [2r w, (2r+1) w) and [(2r+1) w, (2r+2) w) of @p width elements.
template <class K>
__global__ void merge_pass(const K* __restrict__ keys_in, const Value* __restrict__ values_in, K* __restrict__ keys_out,
                           Value* __restrict__ values_out, std::size_t n, std::size_t width) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const K key = keys_in[i];
    const std::size_t pair_first = i / (2 * width) * (2 * width);
    const std::size_t right_first = pair_first + width < n ? pair_first + width : n;
    const std::size_t right_last = right_first + width < n ? right_first + width : n;
    std::size_t place;
    if (i < right_first)  // left run: after the right run's smaller keys
      place = i + (search(keys_in, right_first, right_last, ordered_bits(key), false) - right_first);
    else  // right run: after the left run's smaller or equal keys
      place = i - width + (search(keys_in, pair_first, right_first, ordered_bits(key), true) - pair_first);
    keys_out[place] = key;
    if (values_in != nullptr) values_out[place] = values_in[i];
  }
}

/// The passes that merge runs of 1 into one run of @p n: ceil(log2 n).
int merge_passes(std::size_t n) {
  int passes = 0;
  for (std::size_t width = 1; width < n; width *= 2) ++passes;
  return passes;
}

template <class K>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  const SortScratch<K> scratch = carve_scratch(workspace, args);
  if (args.n == 0) return;
  const unsigned grid = grid_of(std::min<std::size_t>(ceil_div(args.n, shape.threads), std::size_t{1} << 20));
  for_each_pass(args, scratch, merge_passes(args.n), stream,
                [&](const K* keys_in, const Value* values_in, K* keys_out, Value* values_out, int pass) {
                  merge_pass<<<grid, shape.threads, 0, stream>>>(keys_in, values_in, keys_out, values_out, args.n,
                                                                 std::size_t{1} << pass);
                  STEPWISE_CHECK_LAUNCH();
                });
}

}  // namespace

template <class K>
SortStage<K> merge_pairwise() {
  SortStage<K> stage;
  stage.name = "pairwise";
  stage.lesson = "log2 n passes merging pairs of runs, each element placed by a binary search in the other run";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<K>;
  stage.traits.algorithm = Algorithm::merge;
  stage.traits.first_run = 1;
  stage.traits.key_reads_per_pass = 1.0;  // each key once, plus the searches' loads, mostly cached
  stage.traits.key_writes_per_pass = 1.0;
  stage.traits.launches_per_pass = 1;
  return stage;
}

SORT_STAGE_ROWS(merge_pairwise);

}  // namespace stepwise::sort
