// The library row: cub::DeviceRunLengthEncode::Encode on the same keys, writing the key and the
// length of every run and the run count, through the same timing and checks.
#include <cub/device/device_run_length_encode.cuh>

#include "host/check.hpp"
#include "rle.hpp"

namespace stepwise::segmented {
namespace {

template <class T>
void launch(const RleArgs<T>& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  std::size_t bytes = cub_encode_temp_bytes<T>(args.n);
  STEPWISE_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(workspace.carve<unsigned char>(0, bytes), bytes, args.keys,
                                                         args.unique, args.counts, args.runs,
                                                         static_cast<std::int64_t>(args.n), stream));
}

}  // namespace

template <class T>
std::size_t cub_encode_temp_bytes(std::uint64_t n) {
  std::size_t bytes = 0;
  STEPWISE_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(
      nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), static_cast<std::uint32_t*>(nullptr),
      static_cast<std::int64_t*>(nullptr), static_cast<std::int64_t>(n)));
  return bytes;
}

template <class T>
RleStage<T> library_cub_encode() {
  RleStage<T> stage;
  stage.name = "cub::RunLengthEncode";
  stage.lesson = "cub::DeviceRunLengthEncode::Encode: keys, lengths and the run count";
  stage.kind = RowKind::library;
  stage.launch = launch<T>;
  return stage;
}

RLE_STAGE_ROWS(library_cub_encode);
SEGMENTED_FOR_EACH_TYPE(STEPWISE_KEYED_FUNCTION, std::size_t, cub_encode_temp_bytes, (std::uint64_t));

}  // namespace stepwise::segmented
