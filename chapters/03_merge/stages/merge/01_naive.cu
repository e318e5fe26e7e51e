// Stage 1, naive: every element finds its own place.
//
// The output position of A[i] is i plus the number of B's keys that go before it, and that
// number is a binary search: the lower bound of A[i] in B (B's keys strictly below it, so that
// on equal keys A's element goes first). B[j] goes to j plus the upper bound of B[j] in A (A's
// keys at or below it). One thread per element, no communication, any sizes: the obvious
// parallel merge. But every element pays log2 of the other array's length in dependent reads,
// O(n log n) work for what the sequential merge does in O(n) comparisons, and with one element
// per thread there is nothing to register-block. Neighbouring threads search nearly the same
// path, so most of those reads hit L1 or L2: the cost is latency and load instructions more
// than DRAM bytes. The README counts the reads (--analyze) and shows the Nsight Compute L1/L2
// traffic of the searches.
#include "algorithm/merge_path.hpp"
#include "merge.cuh"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

/// The threads-per-block values --sweep tries.
const std::vector<int> kThreads = {128, 256, 512};

template <class K>
__global__ void merge_by_rank(const K* __restrict__ a_keys, const Value* __restrict__ a_values,
                              const K* __restrict__ b_keys, const Value* __restrict__ b_values,
                              K* __restrict__ out_keys, Value* __restrict__ out_values, std::int64_t a_count,
                              std::int64_t b_count) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < a_count) {
    const K key = a_keys[i];
    const std::int64_t at = i + search_bound<Bounds::lower>(b_keys, b_count, key, Less{});
    out_keys[at] = key;
    if (out_values != nullptr) out_values[at] = a_values[i];
  } else if (i < a_count + b_count) {
    const std::int64_t j = i - a_count;
    const K key = b_keys[j];
    const std::int64_t at = j + search_bound<Bounds::upper>(a_keys, a_count, key, Less{});
    out_keys[at] = key;
    if (out_values != nullptr) out_values[at] = b_values[j];
  }
}

template <class K>
void launch(const K* a_keys, const Value* a_values, const K* b_keys, const Value* b_values, K* out_keys,
            Value* out_values, std::size_t a_count, std::size_t b_count, Workspace&, const LaunchShape& shape,
            cudaStream_t stream) {
  require_threads(shape.threads);
  merges_pairs(a_values, b_values, out_values, a_count, b_count);
  const std::size_t total = a_count + b_count;
  if (total == 0) return;
  merge_by_rank<K><<<grid_of(ceil_div(total, shape.threads)), shape.threads, 0, stream>>>(
      a_keys, a_values, b_keys, b_values, out_keys, out_values, static_cast<std::int64_t>(a_count),
      static_cast<std::int64_t>(b_count));
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class K>
MergeStage<K> merge_naive() {
  MergeStage<K> stage;
  stage.name = "naive";
  stage.lesson = "each element binary-searches its rank in the other array (global memory), writes to i + rank";
  stage.shape = {256};
  stage.sweep = shape_grid(kThreads);
  stage.traits.work = Work::per_element_search;
  stage.launch = launch<K>;
  return stage;
}

MERGE_STAGE_ROWS(merge_naive);

}  // namespace stepwise::merge
