// Exercise 03-4: build stage 2, Merge Path per thread, from stage 1 (README.md, "03-4").
//
// Stage 2's lesson (stages/merge/02_path_per_thread.cu): partition the outputs, not the inputs.
// Thread t owns the VT outputs [t*VT, t*VT + VT) instead of one input element. Where they come
// from is where the merge path crosses the diagonal i + j = t*VT: one binary search along that
// diagonal (merge_path, log2 min(|A|, |B|) steps), after which the thread merges its VT outputs
// serially, like the CPU merge. The work drops from O(n log n) to O(n + (n / VT) log n), and every
// thread gets exactly VT outputs whatever the keys are.
//
// Start from stage 1 (stages/merge/01_naive.cu), whose kernel merge_by_rank gives each element
// its place by a binary search of the other array. Write merge_per_thread below: the launcher and
// the row are written, and the launcher runs ceil((|A| + |B|) / VT) threads. Then delete the first
// line of exercise_03_4_stage() and grade it on a GPU with
// `ctest --test-dir build -R exercise-03-4 --output-on-failure`.
#include "algorithm/merge_path.hpp"
#include "build_4_path_per_thread.hpp"
#include "host/dispatch.hpp"
#include "host/exercise.hpp"
#include "merge.cuh"

namespace stepwise::merge::exercises {
namespace {

/// The values per thread compiled in.
using Values = IntList<3, 7, 15>;

/// Merges A and B (keys, and values when @p out_values is set) into out: thread t writes the VT
/// outputs from t * VT (fewer in the last thread), stable (on equal keys A's element first).
template <int VT, class K>
__global__ void merge_per_thread(const K* __restrict__ a_keys, const Value* __restrict__ a_values,
                                 const K* __restrict__ b_keys, const Value* __restrict__ b_values,
                                 K* __restrict__ out_keys, Value* __restrict__ out_values, std::int64_t a_count,
                                 std::int64_t b_count) {
  // TODO: the thread's first diagonal; merge_path on it (algorithm/merge_path.hpp), then
  // serial_merge<VT> from the two cursors, writing each output key (and its value) to out.
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
MergeStage<K> exercise_03_4_stage() {
  // Delete the next line once merge_per_thread is written: until then the grader stops here.
  not_done_yet("03-4", "merge_per_thread", __FILE__);
  MergeStage<K> stage;
  stage.name = "path-per-thread";
  stage.lesson = "each thread owns VT outputs: one Merge Path search in global memory, then a serial merge";
  stage.shape = {128, 7};
  stage.sweep = shape_grid({128, 256}, Values::values());
  stage.traits.work = Work::per_thread_path;
  stage.launch = launch<K>;
  return stage;
}

MERGE_STAGE_ROWS(exercise_03_4_stage);

}  // namespace stepwise::merge::exercises
