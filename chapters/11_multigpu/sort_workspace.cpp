// The sort table, and the sample sort's memory on every GPU, its pinned count matrices and its phase events.
#include <algorithm>

#include "host/check.hpp"
#include "host/multi_device.hpp"
#include "sample_sort.hpp"
#include "sort.hpp"

namespace stepwise::multigpu {

const std::vector<SortStage>& sort_stages() {
  static const std::vector<SortStage> stages = numbered<SortStage>({
      sample_sort(),             // stages/sort/01_sample_sort.cu
      cub_radix_sort_one_gpu(),  // stages/sort/lib_cub_radix_sort.cu
  });
  return stages;
}

std::size_t sample_sort_device_bytes(std::size_t n, int gpus, int samples, int g, std::size_t temp_bytes) {
  const std::size_t g_count = static_cast<std::size_t>(gpus);
  return sizeof(std::uint32_t) * (2 * part_size(n, gpus, g) + 2 * n) +
         sizeof(std::uint64_t) * (g_count * static_cast<std::size_t>(samples) + g_count * g_count) + temp_bytes;
}

SortWorkspace::SortWorkspace(std::size_t n, int gpus, int samples) : n_(n), gpus_(gpus), samples_(samples) {
  const std::size_t g_count = static_cast<std::size_t>(gpus);
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    SortGpuMemory memory;
    memory.sorted = DeviceBuffer<std::uint32_t>(part_size(n, gpus, g));
    memory.samples = DeviceBuffer<std::uint64_t>(g_count * static_cast<std::size_t>(samples));
    memory.counts = DeviceBuffer<std::uint64_t>(g_count * g_count);
    memory.received = DeviceBuffer<std::uint32_t>(n);
    memory.merged = DeviceBuffer<std::uint32_t>(n);
    std::size_t temp = sample_sort_temp_bytes(part_size(n, gpus, g), n);
    if (g == 0) temp = std::max(temp, cub_radix_sort_temp_bytes(n));
    memory.temp = DeviceBuffer<unsigned char>(temp);
    memory_.push_back(std::move(memory));
    for (int phase = 0; phase <= kSortPhases; ++phase) {
      cudaEvent_t event = nullptr;
      STEPWISE_CUDA_CHECK(cudaEventCreate(&event));
      events_.push_back(event);
    }
  }
  STEPWISE_CUDA_CHECK(cudaMallocHost(&host_counts_, g_count * g_count * g_count * sizeof(std::uint64_t)));
}

SortWorkspace::~SortWorkspace() {
  for (int g = 0; g < gpus_; ++g) {
    const ScopedDevice device(g);
    for (int phase = 0; phase <= kSortPhases; ++phase) cudaEventDestroy(event(g, phase));
  }
  cudaFreeHost(host_counts_);
}

std::array<double, kSortPhases> SortWorkspace::phase_ms() {
  std::array<double, kSortPhases> slowest{};
  for (int g = 0; g < gpus_; ++g) {
    const ScopedDevice device(g);
    STEPWISE_CUDA_CHECK(cudaEventSynchronize(event(g, kSortPhases)));
    for (int phase = 0; phase < kSortPhases; ++phase) {
      float ms = 0.0f;
      STEPWISE_CUDA_CHECK(cudaEventElapsedTime(&ms, event(g, phase), event(g, phase + 1)));
      slowest[static_cast<std::size_t>(phase)] = std::max(slowest[static_cast<std::size_t>(phase)], double{ms});
    }
  }
  return slowest;
}

}  // namespace stepwise::multigpu
