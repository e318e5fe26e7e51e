// The sort's baseline: cub::DeviceRadixSort::SortKeys of all n keys on GPU 0 (CUB's Onesweep,
// chapter 09's library row), the same keys and the same check as the sample sort. The sample
// sort's local sorts are this call on n/G keys each; what it adds is the exchange, and the
// README sets its time against this row's.
#include <cub/device/device_radix_sort.cuh>

#include <cstdint>

#include "host/check.hpp"
#include "sort.hpp"

namespace stepwise::multigpu {
namespace {

void launch(const SortOperands& ops, const LaunchShape&) {
  const ScopedDevice device(0);
  SortGpuMemory& memory = ops.workspace->memory(0);
  std::size_t bytes = memory.temp.size();
  if (ops.n > 0)
    STEPWISE_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(memory.temp.data(), bytes, ops.whole_in, ops.whole_out, ops.n, 0,
                                                       32, ops.team->stream(0)));
  ops.outcome->outputs.assign(1, ops.whole_out);
  ops.outcome->plan = make_exchange_plan({static_cast<std::uint64_t>(ops.n)}, 1);
}

}  // namespace

std::size_t cub_radix_sort_temp_bytes(std::size_t n) {
  std::size_t bytes = 0;
  if (n > 0)
    STEPWISE_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                                       static_cast<std::uint32_t*>(nullptr), n));
  return bytes;
}

SortStage cub_radix_sort_one_gpu() {
  SortStage stage;
  stage.name = "cub::DeviceRadixSort (GPU 0)";
  stage.lesson = "one GPU sorts all n keys: the baseline the sample sort must beat";
  stage.kind = RowKind::library;
  stage.launch = launch;
  stage.traits.one_gpu = true;
  return stage;
}

}  // namespace stepwise::multigpu
