// The radix table's library row: cub::DeviceRadixSort::SortKeys / SortPairs on the same buffers,
// through the same timing and checks. CUB runs Onesweep (Adinets & Merrill 2022) on this GPU:
// one histogram pass over the keys for every digit, then one pass per 8-bit digit whose tiles
// chain their digit offsets by decoupled look-back. It maps float keys to the same ordered bits
// as keys.hpp (-0.0 as +0.0), and takes a 64-bit item count, so n may pass 2^31.
#include <cub/device/device_radix_sort.cuh>

#include "host/check.hpp"
#include "sort.hpp"

namespace stepwise::sort {
namespace {

/// Runs (or, with @p temp null, sizes) CUB's radix sort of @p args.
template <class K>
cudaError_t cub_radix(void* temp, std::size_t& temp_bytes, const SortArgs<K>& args, cudaStream_t stream) {
  const auto n = static_cast<std::int64_t>(args.n);
  if (args.values_in != nullptr)
    return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, args.keys_in, args.keys_out, args.values_in,
                                           args.values_out, n, 0, kKeyBits<K>, stream);
  return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, args.keys_in, args.keys_out, n, 0, kKeyBits<K>, stream);
}

template <class K>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  std::size_t temp_bytes = 0;
  STEPWISE_CUDA_CHECK(cub_radix(nullptr, temp_bytes, args, stream));
  workspace.require(temp_bytes);
  STEPWISE_CUDA_CHECK(cub_radix(static_cast<void*>(workspace.data()), temp_bytes, args, stream));
}

}  // namespace

template <class K>
std::size_t cub_radix_temp_bytes(std::size_t n, bool pairs) {
  SortArgs<K> args;
  args.n = n;
  static const Value one_value = 0;  // sizing reads the types and n only; non-null picks SortPairs
  if (pairs) args.values_in = &one_value;
  std::size_t temp_bytes = 0;
  STEPWISE_CUDA_CHECK(cub_radix(nullptr, temp_bytes, args, nullptr));
  return temp_bytes;
}

template <class K>
SortStage<K> library_cub_radix() {
  SortStage<K> stage;
  stage.name = "cub::DeviceRadixSort";
  stage.lesson = "the library on the same data: Onesweep, 8-bit digits, one histogram pass and a look-back per digit";
  stage.kind = RowKind::library;
  stage.launch = launch<K>;
  stage.traits.algorithm = Algorithm::radix;
  return stage;
}

SORT_FOR_EACH_KEY(STEPWISE_KEYED_FUNCTION, std::size_t, cub_radix_temp_bytes, (std::size_t, bool));
SORT_STAGE_ROWS(library_cub_radix);

}  // namespace stepwise::sort
