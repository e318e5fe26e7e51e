// The library rows: cub::DeviceSelect::If (the predicate form) and cub::DeviceSelect::Flagged
// (the flags form), on the same buffers, through the same timing and checks. CUB's select is
// itself a single pass with decoupled look-back. With a payload, keys and values travel
// together through zip iterators, the predicate reading the key.
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>
#include <cub/device/device_select.cuh>

#include "compaction.hpp"
#include "host/check.hpp"

namespace stepwise::compaction {
namespace {

template <class K>
struct KeyBelowZero {
  __device__ bool operator()(K key) const { return keeps_key(key); }
};

template <class K>
struct PairKeyBelowZero {
  template <class Pair>
  __device__ bool operator()(const Pair& pair) const {
    return keeps_key(thrust::get<0>(pair));
  }
};

/// Runs (or, with @p temp null, sizes) the CUB call of @p form on @p args.
template <class K>
cudaError_t cub_select(void* temp, std::size_t& temp_bytes, Form form, const SelectArgs<K>& args, cudaStream_t stream) {
  const auto n = static_cast<std::int64_t>(args.n);
  if (args.values != nullptr) {
    const auto in = thrust::make_zip_iterator(thrust::make_tuple(args.keys, args.values));
    const auto out = thrust::make_zip_iterator(thrust::make_tuple(args.kept_keys, args.kept_values));
    if (form == Form::flags)
      return cub::DeviceSelect::Flagged(temp, temp_bytes, in, args.flags, out, args.kept_count, n, stream);
    return cub::DeviceSelect::If(temp, temp_bytes, in, out, args.kept_count, n, PairKeyBelowZero<K>{}, stream);
  }
  if (form == Form::flags)
    return cub::DeviceSelect::Flagged(temp, temp_bytes, args.keys, args.flags, args.kept_keys, args.kept_count, n,
                                      stream);
  return cub::DeviceSelect::If(temp, temp_bytes, args.keys, args.kept_keys, args.kept_count, n, KeyBelowZero<K>{},
                               stream);
}

template <class K, Form kForm>
void launch(const SelectArgs<K>& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  std::size_t temp_bytes = 0;
  STEPWISE_CUDA_CHECK(cub_select(nullptr, temp_bytes, kForm, args, stream));
  workspace.require(temp_bytes);
  STEPWISE_CUDA_CHECK(cub_select(workspace.data(), temp_bytes, kForm, args, stream));
}

}  // namespace

template <class K>
std::size_t cub_temp_bytes(std::size_t n, Form form, bool payload) {
  SelectArgs<K> args;
  args.n = n;
  // Sizing looks at the types and n only; a non-null payload picks the zip-iterator form.
  static const Payload one_value = 0;
  if (payload) args.values = &one_value;
  std::size_t temp_bytes = 0;
  STEPWISE_CUDA_CHECK(cub_select(nullptr, temp_bytes, form, args, nullptr));
  return temp_bytes;
}

template <class K>
SelectStage<K> library_cub_if() {
  SelectStage<K> stage;
  stage.name = "cub::DeviceSelect::If";
  stage.lesson = "the library on the same data: a single pass with decoupled look-back";
  stage.kind = RowKind::library;
  stage.launch = launch<K, Form::predicate>;
  return stage;
}

template <class K>
SelectStage<K> library_cub_flagged() {
  SelectStage<K> stage;
  stage.name = "cub::DeviceSelect::Flagged";
  stage.lesson = "the library on the same data, with the flags";
  stage.kind = RowKind::library;
  stage.launch = launch<K, Form::flags>;
  return stage;
}

COMPACTION_FOR_EACH_KEY(STEPWISE_KEYED_FUNCTION, std::size_t, cub_temp_bytes, (std::size_t, Form, bool));
COMPACTION_STAGE_ROWS(library_cub_if);
COMPACTION_STAGE_ROWS(library_cub_flagged);

}  // namespace stepwise::compaction
