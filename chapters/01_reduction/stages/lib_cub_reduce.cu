// The library row: cub::DeviceReduce::Sum on the same data, through the same timing and
// checks as the stages, its temporary storage allocated with the workspace.
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <limits>

#include "host/check.hpp"
#include "reduction.cuh"

namespace stepwise::reduction {
namespace {

template <class T>
void launch(const T* in, T* out, std::size_t n, ReduceWorkspace<T>& workspace, const LaunchShape&,
            cudaStream_t stream) {
  workspace.require_capacity(n);
  if (n == 0) return write_identity(out, stream);
  std::size_t bytes = workspace.cub_storage_bytes();
  // 32-bit item counts where they suffice: CUB then indexes with 32-bit offsets, its fast path.
  if (n <= std::numeric_limits<std::uint32_t>::max())
    STEPWISE_CUDA_CHECK(
        cub::DeviceReduce::Sum(workspace.cub_storage(), bytes, in, out, static_cast<std::uint32_t>(n), stream));
  else
    STEPWISE_CUDA_CHECK(
        cub::DeviceReduce::Sum(workspace.cub_storage(), bytes, in, out, static_cast<std::uint64_t>(n), stream));
}

}  // namespace

template <class T>
std::size_t cub_sum_storage_bytes(std::size_t n) {
  std::size_t bytes = 0;
  const std::size_t items = std::max<std::size_t>(n, 1);
  if (items <= std::numeric_limits<std::uint32_t>::max())
    STEPWISE_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
                                               static_cast<std::uint32_t>(items)));
  else
    STEPWISE_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
                                               static_cast<std::uint64_t>(items)));
  return bytes;
}

template <class T>
ReduceStage<T> library_cub_reduce() {
  ReduceStage<T> stage;
  stage.name = "cub::DeviceReduce::Sum";
  stage.lesson = "NVIDIA's library on the same data";
  stage.kind = RowKind::library;
  stage.launch = launch<T>;
  return stage;
}

REDUCTION_FOR_EACH_TYPE(STEPWISE_KEYED_FUNCTION, std::size_t, cub_sum_storage_bytes, (std::size_t));
REDUCTION_STAGE_ROWS(library_cub_reduce);

}  // namespace stepwise::reduction
