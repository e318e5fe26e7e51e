// The library row: cub::DeviceHistogram::HistogramEven on the same keys, through the same timing
// and checks as the stages. It counts (K + 1 evenly spaced levels 0, 1, ..., K: bin b holds the
// keys equal to b), so it is the baseline of the int-add table only: CUB has no histogram that
// adds float or double weights. CUB privatizes the bins per block in shared memory where they
// fit and otherwise in global memory, and its kernel is tuned per architecture.
#include <cub/device/device_histogram.cuh>

#include "atomics.cuh"

namespace stepwise::atomics {
namespace {

/// One CUB call: with @p temp null, sets @p temp_bytes to the storage CUB needs and runs nothing.
void run_cub(const Key* keys, std::int32_t* bins, std::size_t n, int bin_count, void* temp, std::size_t& temp_bytes,
             cudaStream_t stream) {
  STEPWISE_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, keys, bins, bin_count + 1, Key{0},
                                                          Key{bin_count}, static_cast<std::int64_t>(n), stream));
}

void launch(const Key* keys, const std::int32_t*, std::int32_t* bins, std::size_t n, int bin_count,
            Workspace& workspace, const LaunchShape&, cudaStream_t stream) {
  zero_bins(bins, bin_count, stream);  // CUB zeroes them too; n = 0 launches nothing
  if (n == 0) return;
  std::size_t needed = 0;
  run_cub(keys, bins, n, bin_count, nullptr, needed, stream);
  workspace.require(needed);
  std::size_t bytes = workspace.bytes();
  run_cub(keys, bins, n, bin_count, workspace.data(), bytes, stream);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

std::size_t cub_histogram_temp_bytes(std::size_t n, int bin_count) {
  std::size_t bytes = 0;
  run_cub(nullptr, nullptr, n, bin_count, nullptr, bytes, nullptr);
  return bytes;
}

HistogramStage<IntAdd> histogram_library_cub() {
  HistogramStage<IntAdd> stage;
  stage.name = "cub::DeviceHistogram";
  stage.lesson = "cub::DeviceHistogram::HistogramEven with levels 0..K (int-add only: CUB counts)";
  stage.kind = RowKind::library;
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::atomics
