// --latency: a pointer chase. One thread follows a random cycle through 128-byte lines of a
// buffer; every load depends on the one before, so the time per step is the latency of one
// load with nothing else in flight.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/check.hpp"
#include "host/device_buffer.hpp"
#include "latency.hpp"

namespace stepwise::bandwidth {
namespace {

constexpr std::size_t kLineWords = 32;  // 128 bytes of uint32

/// Writes the cycle's links into the first word of each line (the other words stay 0).
__global__ void spread_links(const std::uint32_t* __restrict__ links, std::size_t lines,
                             std::uint32_t* __restrict__ table) {
  const std::size_t line = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (line < lines) table[line * kLineWords] = links[line];
}

/// Follows @p steps links from line @p start and writes the line it ends on to @p end, so that
/// no load can be skipped and the next walk can go on from there.
__global__ void chase(const std::uint32_t* __restrict__ next, std::uint32_t start, std::size_t steps,
                      std::uint32_t* __restrict__ end) {
  std::uint32_t line = start;
  for (std::size_t s = 0; s < steps; ++s) line = next[static_cast<std::size_t>(line) * kLineWords];
  *end = line;
}

}  // namespace

ChaseResult pointer_chase(std::size_t bytes, std::size_t steps, unsigned long long seed) {
  const std::size_t lines = bytes / (kLineWords * sizeof(std::uint32_t));
  // Sattolo's shuffle: a random permutation that is one single cycle through every line.
  std::vector<std::uint32_t> order(lines);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 random(seed);
  for (std::size_t i = lines - 1; i > 0; --i) std::swap(order[i], order[random() % i]);
  std::vector<std::uint32_t> links(lines);
  for (std::size_t i = 0; i < lines; ++i) links[order[i]] = order[(i + 1) % lines];

  DeviceBuffer<std::uint32_t> table(lines * kLineWords);
  STEPWISE_CUDA_CHECK(cudaMemset(table.data(), 0, table.bytes()));
  {
    const DeviceBuffer<std::uint32_t> compact(links);
    constexpr unsigned kThreads = 256;
    spread_links<<<static_cast<unsigned>((lines + kThreads - 1) / kThreads), kThreads>>>(compact.data(), lines,
                                                                                         table.data());
    STEPWISE_CHECK_LAUNCH();
  }
  DeviceBuffer<std::uint32_t> end(1);
  // Warm-up: the same number of steps from line 0. The timed walk goes on from where it ended,
  // so when the cycle holds more than twice the steps, it loads only lines the warm-up did not.
  chase<<<1, 1>>>(table.data(), 0u, steps, end.data());
  STEPWISE_CHECK_LAUNCH();
  std::uint32_t start_line = 0;
  STEPWISE_CUDA_CHECK(cudaMemcpy(&start_line, end.data(), sizeof start_line, cudaMemcpyDeviceToHost));
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  STEPWISE_CUDA_CHECK(cudaEventCreate(&start));
  STEPWISE_CUDA_CHECK(cudaEventCreate(&stop));
  STEPWISE_CUDA_CHECK(cudaEventRecord(start));
  chase<<<1, 1>>>(table.data(), start_line, steps, end.data());
  STEPWISE_CHECK_LAUNCH();
  STEPWISE_CUDA_CHECK(cudaEventRecord(stop));
  STEPWISE_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  STEPWISE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  STEPWISE_CUDA_CHECK(cudaEventDestroy(start));
  STEPWISE_CUDA_CHECK(cudaEventDestroy(stop));
  // The chain's check: both walks must end where the host's walk of the same links ends.
  std::uint32_t expected = 0;
  for (std::size_t s = 0; s < 2 * steps; ++s) expected = links[expected];
  std::uint32_t end_line = 0;
  STEPWISE_CUDA_CHECK(cudaMemcpy(&end_line, end.data(), sizeof end_line, cudaMemcpyDeviceToHost));
  if (end_line != expected)
    throw std::runtime_error("pointer chase: the walk ended on line " + std::to_string(end_line) + ", not " +
                             std::to_string(expected));
  return {lines * kLineWords * sizeof(std::uint32_t), steps, 1e6 * ms / static_cast<double>(steps)};
}

std::size_t free_device_bytes() {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  STEPWISE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

}  // namespace stepwise::bandwidth
