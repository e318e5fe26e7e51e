// Stage 2, Merge Path per thread: partition the outputs, not the inputs.
//
// Changed from stage 1: thread t owns the VT outputs [t*VT, t*VT + VT) instead of one input.
// Where they come from is where the merge path crosses the diagonal i + j = t*VT: one binary
// search along that diagonal (merge_path, log2 min(|A|, |B|) steps, two global reads each),
// after which the thread merges its VT outputs serially, exactly like the CPU merge. The work
// drops from O(n log n) to O(n + (n / VT) log n), and every thread gets exactly VT outputs
// whatever the keys are (no thread idles on a skewed or duplicated input). What is still
// wrong is the memory access: thread t reads and writes VT consecutive elements, so at each
// step the 32 lanes of a warp touch 32 addresses VT elements apart, up to 32 sectors per store
// instruction (28 at VT = 7 with 4-byte keys) instead of 4. Stage 3 moves the tile through
// shared memory to fix that.
#include "algorithm/merge_path.hpp"
#include "host/dispatch.hpp"
#include "merge.cuh"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

/// The values per thread compiled in.
using Values = IntList<3, 7, 15>;

template <int VT, class K>
__global__ void merge_per_thread(const K* __restrict__ a_keys, const Value* __restrict__ a_values,
                                 const K* __restrict__ b_keys, const Value* __restrict__ b_values,
                                 K* __restrict__ out_keys, Value* __restrict__ out_values, std::int64_t a_count,
                                 std::int64_t b_count) {
  const std::int64_t diagonal = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) * VT;
  if (diagonal >= a_count + b_count) return;
  const std::int64_t path = merge_path(a_keys, a_count, b_keys, b_count, diagonal, Less{});
  serial_merge<VT>(a_keys, path, a_count, b_keys, diagonal - path, b_count, Less{},
                   [&](int i, bool from_a, std::int64_t a_index, std::int64_t b_index, K key) {
                     out_keys[diagonal + i] = key;
                     if (out_values != nullptr)
                       out_values[diagonal + i] = from_a ? a_values[a_index] : b_values[b_index];
                   });
}

template <class K>
void launch(const K* a_keys, const Value* a_values, const K* b_keys, const Value* b_values, K* out_keys,
            Value* out_values, std::size_t a_count, std::size_t b_count, Workspace&, const LaunchShape& shape,
            cudaStream_t stream) {
  require_threads(shape.threads);
  merges_pairs(a_values, b_values, out_values, a_count, b_count);
  dispatch(shape.items, Values{}, "values per thread", [&](auto values) {
    constexpr int kVT = decltype(values)::value;
    const std::size_t total = a_count + b_count;
    if (total == 0) return;
    const std::size_t threads = ceil_div(total, kVT);
    merge_per_thread<kVT, K><<<grid_of(ceil_div(threads, shape.threads)), shape.threads, 0, stream>>>(
        a_keys, a_values, b_keys, b_values, out_keys, out_values, static_cast<std::int64_t>(a_count),
        static_cast<std::int64_t>(b_count));
    STEPWISE_CHECK_LAUNCH();
  });
}

}  // namespace

template <class K>
MergeStage<K> merge_path_per_thread() {
  MergeStage<K> stage;
  stage.name = "path-per-thread";
  stage.lesson = "each thread owns VT outputs: one Merge Path search in global memory, then a serial merge";
  stage.shape = {128, 7};
  stage.sweep = shape_grid({128, 256}, Values::values());
  stage.traits.work = Work::per_thread_path;
  stage.launch = launch<K>;
  return stage;
}

MERGE_STAGE_ROWS(merge_path_per_thread);

}  // namespace stepwise::merge
