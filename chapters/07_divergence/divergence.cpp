// The chapter's tables and its shared scratch: add a stage by adding its file under stages/ and
// its row here.
#include "divergence.hpp"

#include "host/check.hpp"

namespace stepwise::divergence {

RemapScratch::RemapScratch(std::size_t n, std::size_t item_bytes, std::size_t cub_bytes, bool host_orders)
    : flags_(n), staged_(n * item_bytes), staged_results_(n * item_bytes), counters_(kCounters), cub_(cub_bytes) {
  for (int set = 0; set < 2; ++set) {
    keys_[set] = DeviceBuffer<std::uint8_t>(n);
    sorted_keys_[set] = DeviceBuffer<std::uint8_t>(n);
    indices_[set] = DeviceBuffer<std::uint32_t>(n);
    sorted_indices_[set] = DeviceBuffer<std::uint32_t>(n);
    path_counts_[set] = DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(kMaxPaths) * kMaxRemapBlocks);
  }
  STEPWISE_CUDA_CHECK(cudaMallocHost(&host_counters_, kCounters * sizeof *host_counters_));
  if (host_orders)
    for (std::uint32_t*& order : host_orders_)
      STEPWISE_CUDA_CHECK(cudaMallocHost(&order, (n == 0 ? 1 : n) * sizeof *order));
  int least = 0, greatest = 0;
  STEPWISE_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  STEPWISE_CUDA_CHECK(cudaStreamCreateWithPriority(&side_, cudaStreamNonBlocking, greatest));
  for (cudaEvent_t& event : events_) STEPWISE_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
}

RemapScratch::~RemapScratch() {
  for (cudaEvent_t event : events_)
    if (event != nullptr) cudaEventDestroy(event);
  if (side_ != nullptr) cudaStreamDestroy(side_);
  if (host_counters_ != nullptr) cudaFreeHost(host_counters_);
  for (std::uint32_t* order : host_orders_)
    if (order != nullptr) cudaFreeHost(order);
}

template <>
const std::vector<DivergeStage<Synthetic>>& diverge_stages<Synthetic>() {
  static const std::vector<DivergeStage<Synthetic>> stages = {
      divergent<Synthetic>(),     // stages/01_divergent.cu
      branch_light<Synthetic>(),  // stages/02_branch_light.cu
      redirect<Synthetic>(),      // stages/03_redirect.cu
      transform<Synthetic>(),     // stages/04_transform.cu
      partial<Synthetic>(),       // stages/05_partial.cu
      controlled<Synthetic>(),    // stages/08_controlled.cu
  };
  return stages;
}

template <>
const std::vector<DivergeStage<Mutation>>& diverge_stages<Mutation>() {
  static const std::vector<DivergeStage<Mutation>> stages = {
      divergent<Mutation>(),       // stages/01_divergent.cu
      branch_light<Mutation>(),    // stages/02_branch_light.cu
      redirect<Mutation>(),        // stages/03_redirect.cu
      transform<Mutation>(),       // stages/04_transform.cu
      partial<Mutation>(),         // stages/05_partial.cu
      pipelined_cpu<Mutation>(),   // stages/06_pipelined_cpu.cu
      pipelined<Mutation>(),       // stages/07_pipelined.cu
      controlled<Mutation>(),      // stages/08_controlled.cu
      pipelined_lean<Mutation>(),  // stages/09_pipelined_lean.cu
  };
  return stages;
}

}  // namespace stepwise::divergence
