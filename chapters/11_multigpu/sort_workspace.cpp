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
      partition_first_sort(),    // stages/sort/02_partition_first.cu
      cub_radix_sort_one_gpu(),  // stages/sort/lib_cub_radix_sort.cu
  });
  return stages;
}

namespace {

/// The keys each of a GPU's G bucket regions holds: the largest part.
std::size_t bucket_capacity(std::size_t n, int gpus) { return part_size(n, gpus, 0); }

}  // namespace

std::size_t sample_sort_device_bytes(std::size_t n, int gpus, int samples, int g, std::size_t temp_bytes) {
  const std::size_t g_count = static_cast<std::size_t>(gpus);
  return sizeof(std::uint32_t) * (2 * part_size(n, gpus, g) + 2 * n + g_count * bucket_capacity(n, gpus)) +
         sizeof(std::uint64_t) *
             (g_count * static_cast<std::size_t>(samples) + g_count * g_count + 2 * kLocalSamples + kMaxGpus) +
         temp_bytes;
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
    memory.buckets = DeviceBuffer<std::uint32_t>(g_count * bucket_capacity(n, gpus));
    memory.local_samples = DeviceBuffer<std::uint64_t>(kLocalSamples);
    memory.sorted_samples = DeviceBuffer<std::uint64_t>(kLocalSamples);
    memory.splitters = DeviceBuffer<std::uint64_t>(kMaxGpus);
    const std::size_t part = part_size(n, gpus, g);
    std::size_t temp = std::max(sample_sort_temp_bytes(part, n), partition_sort_temp_bytes(part, n));
    if (g == 0) temp = std::max(temp, cub_radix_sort_temp_bytes(n));
    memory.temp = DeviceBuffer<unsigned char>(temp);
    memory.side_temp = DeviceBuffer<unsigned char>(partition_sort_side_temp_bytes(part));
    memory_.push_back(std::move(memory));
    for (int phase = 0; phase <= kMaxSortPhases; ++phase) {
      cudaEvent_t event = nullptr;
      STEPWISE_CUDA_CHECK(cudaEventCreate(&event));
      events_.push_back(event);
    }
    cudaStream_t side = nullptr;
    STEPWISE_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    side_streams_.push_back(side);
    cudaEvent_t done = nullptr;
    STEPWISE_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    side_done_.push_back(done);
  }
  STEPWISE_CUDA_CHECK(cudaMallocHost(&host_counts_, g_count * g_count * g_count * sizeof(std::uint64_t)));
}

SortWorkspace::~SortWorkspace() {
  for (int g = 0; g < gpus_; ++g) {
    const ScopedDevice device(g);
    for (int phase = 0; phase <= kMaxSortPhases; ++phase) cudaEventDestroy(event(g, phase));
    cudaEventDestroy(side_done(g));
    cudaStreamDestroy(side_stream(g));
  }
  cudaFreeHost(host_counts_);
}

std::vector<double> SortWorkspace::phase_ms(int phases) {
  std::vector<double> slowest(static_cast<std::size_t>(phases), 0.0);
  for (int g = 0; g < gpus_; ++g) {
    const ScopedDevice device(g);
    STEPWISE_CUDA_CHECK(cudaEventSynchronize(event(g, phases)));
    for (int phase = 0; phase < phases; ++phase) {
      float ms = 0.0f;
      STEPWISE_CUDA_CHECK(cudaEventElapsedTime(&ms, event(g, phase), event(g, phase + 1)));
      slowest[static_cast<std::size_t>(phase)] = std::max(slowest[static_cast<std::size_t>(phase)], double{ms});
    }
  }
  return slowest;
}

}  // namespace stepwise::multigpu
