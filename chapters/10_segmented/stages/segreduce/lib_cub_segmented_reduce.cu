// The library row: cub::DeviceSegmentedReduce::Sum over the same offsets (begin offsets, and the
// same array shifted by one as end offsets), on the same buffers, through the same timing and
// checks. CUB assigns a block per segment, with its own tuning policy per architecture.
#include <cub/device/device_segmented_reduce.cuh>

#include <type_traits>

#include "host/check.hpp"
#include "segreduce.hpp"

namespace stepwise::segmented {
namespace {

/// int32 as uint32, so that the sums wrap as defined; float32 and float64 as they are.
template <class T>
using Wide = std::conditional_t<std::is_integral_v<T>, std::uint32_t, T>;

template <class T>
void launch(const SegReduceArgs<T>& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  std::size_t bytes = cub_segmented_reduce_temp_bytes<T>(args.segments);
  STEPWISE_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(
      workspace.carve<unsigned char>(0, bytes), bytes, reinterpret_cast<const Wide<T>*>(args.values),
      reinterpret_cast<Wide<T>*>(args.out), static_cast<std::int64_t>(args.segments), args.offsets, args.offsets + 1,
      stream));
}

}  // namespace

template <class T>
std::size_t cub_segmented_reduce_temp_bytes(std::uint64_t segments) {
  std::size_t bytes = 0;
  STEPWISE_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(
      nullptr, bytes, static_cast<const Wide<T>*>(nullptr), static_cast<Wide<T>*>(nullptr),
      static_cast<std::int64_t>(segments), static_cast<const std::uint64_t*>(nullptr),
      static_cast<const std::uint64_t*>(nullptr)));
  return bytes;
}

template <class T>
SegReduceStage<T> library_cub_segmented_reduce() {
  SegReduceStage<T> stage;
  stage.name = "cub::DeviceSegmentedReduce";
  stage.lesson = "cub::DeviceSegmentedReduce::Sum over the same offsets";
  stage.kind = RowKind::library;
  stage.launch = launch<T>;
  return stage;
}

SEGREDUCE_STAGE_ROWS(library_cub_segmented_reduce);
SEGMENTED_FOR_EACH_TYPE(STEPWISE_KEYED_FUNCTION, std::size_t, cub_segmented_reduce_temp_bytes, (std::uint64_t));

}  // namespace stepwise::segmented
