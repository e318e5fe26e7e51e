// The library row: cub::DeviceMerge::MergeKeys, or MergePairs for a merge of key-value pairs, on
// the same buffers, through the same timing and checks as the stages. CUB's merge is the
// two-level Merge Path of stages 3-4 (a partition kernel, then one tile per block, tuned per
// architecture: 512 threads x 15 keys on sm_90 for 4-byte keys), with 64-bit offsets. CUB
// documents its merge as unstable; the chapter checks it against the stable std::merge like
// every row, so a reordering of equal keys' values would show as a FAIL with --pairs.
#include <cub/device/device_merge.cuh>

#include "host/check.hpp"
#include "merge.cuh"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

/// One CUB call: with @p temp null, sets @p temp_bytes to the storage CUB needs and runs nothing.
template <class K>
void run_cub(const K* a_keys, const Value* a_values, const K* b_keys, const Value* b_values, K* out_keys,
             Value* out_values, std::size_t a_count, std::size_t b_count, bool pairs, void* temp,
             std::size_t& temp_bytes, cudaStream_t stream) {
  const auto na = static_cast<std::int64_t>(a_count);
  const auto nb = static_cast<std::int64_t>(b_count);
  if (pairs)
    STEPWISE_CUDA_CHECK(cub::DeviceMerge::MergePairs(temp, temp_bytes, a_keys, a_values, na, b_keys, b_values, nb,
                                                     out_keys, out_values, Less{}, stream));
  else
    STEPWISE_CUDA_CHECK(
        cub::DeviceMerge::MergeKeys(temp, temp_bytes, a_keys, na, b_keys, nb, out_keys, Less{}, stream));
}

template <class K>
void launch(const K* a_keys, const Value* a_values, const K* b_keys, const Value* b_values, K* out_keys,
            Value* out_values, std::size_t a_count, std::size_t b_count, Workspace& workspace, const LaunchShape&,
            cudaStream_t stream) {
  const bool pairs = merges_pairs(a_values, b_values, out_values, a_count, b_count);
  if (a_count + b_count == 0) return;
  std::size_t needed = 0;
  run_cub(a_keys, a_values, b_keys, b_values, out_keys, out_values, a_count, b_count, pairs, nullptr, needed, stream);
  workspace.require(needed);
  std::size_t bytes = workspace.bytes();
  run_cub(a_keys, a_values, b_keys, b_values, out_keys, out_values, a_count, b_count, pairs, workspace.data(), bytes,
          stream);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class K>
std::size_t cub_merge_temp_bytes(std::size_t a_count, std::size_t b_count, bool pairs) {
  std::size_t bytes = 0;
  run_cub<K>(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, a_count, b_count, pairs, nullptr, bytes, nullptr);
  return bytes;
}

template <class K>
MergeStage<K> merge_library_cub() {
  MergeStage<K> stage;
  stage.name = "cub::DeviceMerge";
  stage.lesson = "cub::DeviceMerge::MergeKeys (MergePairs with --pairs), same data, same timing";
  stage.kind = RowKind::library;
  stage.launch = launch<K>;
  return stage;
}

MERGE_FOR_EACH_KEY(STEPWISE_KEYED_FUNCTION, std::size_t, cub_merge_temp_bytes, (std::size_t, std::size_t, bool));
MERGE_STAGE_ROWS(merge_library_cub);

}  // namespace stepwise::merge
