// --latency: a pointer chase. One thread follows a random cycle through 128-byte lines of a
// buffer; every load depends on the one before, so the time per step is the latency of one
// load with nothing else in flight.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "host/check.hpp"
#include "host/device_buffer.hpp"
#include "latency.hpp"

namespace stepwise::bandwidth {
namespace {

constexpr std::size_t kLineWords = 32;  // 128 bytes of uint32

__global__ void chase(const std::uint32_t* __restrict__ next, std::size_t steps, std::uint32_t* __restrict__ end) {
  std::uint32_t line = 0;
  for (std::size_t s = 0; s < steps; ++s) line = next[static_cast<std::size_t>(line) * kLineWords];
  *end = line;  // the chain's end, so that no load can be skipped
}

}  // namespace

ChaseResult pointer_chase(std::size_t bytes, std::size_t steps, unsigned long long seed) {
  const std::size_t lines = bytes / (kLineWords * sizeof(std::uint32_t));
  // Sattolo's shuffle: a random permutation that is one single cycle through every line.
  std::vector<std::uint32_t> order(lines);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 random(seed);
  for (std::size_t i = lines - 1; i > 0; --i) std::swap(order[i], order[random() % i]);
  std::vector<std::uint32_t> next(lines * kLineWords, 0);
  for (std::size_t i = 0; i < lines; ++i)
    next[static_cast<std::size_t>(order[i]) * kLineWords] = order[(i + 1) % lines];

  DeviceBuffer<std::uint32_t> table(next);
  DeviceBuffer<std::uint32_t> end(1);
  chase<<<1, 1>>>(table.data(), std::min(steps, lines), end.data());  // warm-up: TLB and L2 as the chase leaves them
  STEPWISE_CHECK_LAUNCH();
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  STEPWISE_CUDA_CHECK(cudaEventCreate(&start));
  STEPWISE_CUDA_CHECK(cudaEventCreate(&stop));
  STEPWISE_CUDA_CHECK(cudaEventRecord(start));
  chase<<<1, 1>>>(table.data(), steps, end.data());
  STEPWISE_CHECK_LAUNCH();
  STEPWISE_CUDA_CHECK(cudaEventRecord(stop));
  STEPWISE_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  STEPWISE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return {lines * kLineWords * sizeof(std::uint32_t), steps, 1e6 * ms / static_cast<double>(steps)};
}

}  // namespace stepwise::bandwidth
