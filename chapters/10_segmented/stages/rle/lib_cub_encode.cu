// The library row: cub::DeviceRunLengthEncode::Encode on the same keys, writing the key and the
// length of every run and the run count, through the same timing and checks.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include <cub/device/device_run_length_encode.cuh>

#include "host/check.hpp"
#include "rle.hpp"

namespace stepwise::segmented {
namespace {

/// CUDA 13.0's CUB (CCCL 3.0) declares Encode's item count an `int` (a 64-bit count came later:
/// NVIDIA/cccl#2521). A larger n would wrap to a negative count and the call would not return,
/// so the row says so in its traits (the chapter leaves it out) and refuses it.
constexpr std::uint64_t kMaxEncodeItems = static_cast<std::uint64_t>(std::numeric_limits<int>::max());

template <class T>
void launch(const RleArgs<T>& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  if (args.n > kMaxEncodeItems)
    throw std::invalid_argument("cub::DeviceRunLengthEncode::Encode counts items in an int here: n = " +
                                std::to_string(args.n) + " is above 2^31 - 1");
  std::size_t bytes = cub_encode_temp_bytes<T>(args.n);
  STEPWISE_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(workspace.carve<unsigned char>(0, bytes), bytes, args.keys,
                                                         args.unique, args.counts, args.runs, static_cast<int>(args.n),
                                                         stream));
}

}  // namespace

template <class T>
std::size_t cub_encode_temp_bytes(std::uint64_t n) {
  std::size_t bytes = 0;
  STEPWISE_CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(
      nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), static_cast<std::uint32_t*>(nullptr),
      static_cast<std::int64_t*>(nullptr), static_cast<int>(std::min(n, kMaxEncodeItems))));
  return bytes;
}

template <class T>
RleStage<T> library_cub_encode() {
  RleStage<T> stage;
  stage.name = "cub::RunLengthEncode";
  stage.lesson = "cub::DeviceRunLengthEncode::Encode: keys, lengths and the run count";
  stage.kind = RowKind::library;
  stage.launch = launch<T>;
  stage.traits.max_items = kMaxEncodeItems;
  return stage;
}

RLE_STAGE_ROWS(library_cub_encode);
SEGMENTED_FOR_EACH_TYPE(STEPWISE_KEYED_FUNCTION, std::size_t, cub_encode_temp_bytes, (std::uint64_t));

}  // namespace stepwise::segmented
