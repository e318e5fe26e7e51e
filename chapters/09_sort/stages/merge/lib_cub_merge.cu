// The merge table's library row: cub::DeviceMergeSort with a comparator on ordered_bits, on the
// same buffers, through the same timing and checks. A merge sort only compares keys, so it sorts
// any type with any order, where a radix sort needs keys it can cut into digits; the price is
// log2(n / tile) merge passes over the data. Its stable calls: StableSortKeysCopy for keys only
// (the input is read, the output written); for pairs StableSortPairs, which sorts in place, so
// the row first copies the keys and values to the output (two more reads and writes, counted in
// its time).
#include <cub/device/device_merge_sort.cuh>

#include "host/check.hpp"
#include "sort.hpp"

namespace stepwise::sort {
namespace {

/// Runs (or, with @p temp null, sizes) CUB's stable merge sort of @p args.
template <class K>
cudaError_t cub_merge(void* temp, std::size_t& temp_bytes, const SortArgs<K>& args, cudaStream_t stream) {
  const auto n = static_cast<std::int64_t>(args.n);
  if (args.values_in != nullptr)
    return cub::DeviceMergeSort::StableSortPairs(temp, temp_bytes, args.keys_out, args.values_out, n, OrderedLess<K>{},
                                                 stream);
  return cub::DeviceMergeSort::StableSortKeysCopy(temp, temp_bytes, args.keys_in, args.keys_out, n, OrderedLess<K>{},
                                                  stream);
}

template <class K>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  std::size_t temp_bytes = 0;
  STEPWISE_CUDA_CHECK(cub_merge(nullptr, temp_bytes, args, stream));
  workspace.require(temp_bytes);
  if (args.n == 0) return;
  if (args.values_in != nullptr) {
    STEPWISE_CUDA_CHECK(
        cudaMemcpyAsync(args.keys_out, args.keys_in, args.n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    STEPWISE_CUDA_CHECK(
        cudaMemcpyAsync(args.values_out, args.values_in, args.n * sizeof(Value), cudaMemcpyDeviceToDevice, stream));
  }
  STEPWISE_CUDA_CHECK(cub_merge(static_cast<void*>(workspace.data()), temp_bytes, args, stream));
}

}  // namespace

template <class K>
std::size_t cub_merge_temp_bytes(std::size_t n, bool pairs) {
  SortArgs<K> args;
  args.n = n;
  static const Value one_value = 0;  // sizing reads the types and n only; non-null picks the pairs call
  if (pairs) args.values_in = &one_value;
  std::size_t temp_bytes = 0;
  STEPWISE_CUDA_CHECK(cub_merge(nullptr, temp_bytes, args, nullptr));
  return temp_bytes;
}

template <class K>
SortStage<K> library_cub_merge() {
  SortStage<K> stage;
  stage.name = "cub::DeviceMergeSort";
  stage.lesson = "the library on the same data: a stable merge sort with a comparator on ordered_bits";
  stage.kind = RowKind::library;
  stage.launch = launch<K>;
  stage.traits.algorithm = Algorithm::merge;
  return stage;
}

SORT_FOR_EACH_KEY(STEPWISE_KEYED_FUNCTION, std::size_t, cub_merge_temp_bytes, (std::size_t, bool));
SORT_STAGE_ROWS(library_cub_merge);

}  // namespace stepwise::sort
