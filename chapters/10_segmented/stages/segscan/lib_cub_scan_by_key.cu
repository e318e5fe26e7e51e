// The library row: cub::DeviceScan::InclusiveScanByKey with the segment ids as keys (the same ids
// stage 2 reads for its flags), on the same buffers, through the same timing and checks. CUB's
// scan by key is a single-pass scan with decoupled look-back of (key, value) pairs: stage 2's
// algorithm, with its tuning per architecture.
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

#include <type_traits>

#include "host/check.hpp"
#include "segscan.hpp"

namespace stepwise::segmented {
namespace {

/// int32 as uint32, so that the sums wrap as defined; float32 and float64 as they are.
template <class T>
using Wide = std::conditional_t<std::is_integral_v<T>, std::uint32_t, T>;

template <class T>
void launch(const SegScanArgs<T>& args, Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  std::size_t bytes = cub_scan_by_key_temp_bytes<T>(args.n);
  STEPWISE_CUDA_CHECK(cub::DeviceScan::InclusiveScanByKey(
      workspace.carve<unsigned char>(0, bytes), bytes, args.segment_ids, reinterpret_cast<const Wide<T>*>(args.values),
      reinterpret_cast<Wide<T>*>(args.out), ::cuda::std::plus<Wide<T>>{}, static_cast<std::int64_t>(args.n),
      ::cuda::std::equal_to<std::uint32_t>{}, stream));
}

}  // namespace

template <class T>
std::size_t cub_scan_by_key_temp_bytes(std::uint64_t n) {
  std::size_t bytes = 0;
  STEPWISE_CUDA_CHECK(cub::DeviceScan::InclusiveScanByKey(
      nullptr, bytes, static_cast<const std::uint32_t*>(nullptr), static_cast<const Wide<T>*>(nullptr),
      static_cast<Wide<T>*>(nullptr), ::cuda::std::plus<Wide<T>>{}, static_cast<std::int64_t>(n),
      ::cuda::std::equal_to<std::uint32_t>{}));
  return bytes;
}

template <class T>
SegScanStage<T> library_cub_scan_by_key() {
  SegScanStage<T> stage;
  stage.name = "cub::InclusiveScanByKey";
  stage.lesson = "cub::DeviceScan::InclusiveScanByKey with the segment ids as keys";
  stage.kind = RowKind::library;
  stage.launch = launch<T>;
  return stage;
}

SEGSCAN_STAGE_ROWS(library_cub_scan_by_key);
SEGMENTED_FOR_EACH_TYPE(STEPWISE_KEYED_FUNCTION, std::size_t, cub_scan_by_key_temp_bytes, (std::uint64_t));

}  // namespace stepwise::segmented
