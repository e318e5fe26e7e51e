// Stage 1: host-staged. Every GPU copies its buffer to the host, the CPU adds them, and the sum
// is copied back to every GPU. It is the all-reduce anyone can write with cudaMemcpy alone, and
// each of its bytes crosses PCIe twice and waits for the host in between: every GPU sends n
// elements down and receives n back, whatever G, and the CPU's pass over G x n elements sits in
// the middle. The README's sweep shows it as the floor the later stages are measured against.
#include <cstring>

#include "allreduce.cuh"
#include "host/parallel.hpp"

namespace stepwise::multigpu {
namespace {

/// Elements of one chunk of the host's sum (each chunk on one host thread).
constexpr std::size_t kHostChunk = std::size_t{1} << 20;

template <class T>
void launch_typed(const AllReduceOperands& ops) {
  const DeviceTeam& team = *ops.team;
  const int gpus = team.size();
  const std::size_t bytes = ops.n * sizeof(T);
  for (int g = 0; g < gpus; ++g) {
    ScopedDevice device(g);
    STEPWISE_CUDA_CHECK(cudaMemcpyAsync(ops.host_staging[static_cast<std::size_t>(g)],
                                        ops.in[static_cast<std::size_t>(g)], bytes, cudaMemcpyDeviceToHost,
                                        team.stream(g)));
  }
  team.synchronize();  // the host waits for every GPU's buffer: this stage synchronizes
  T* sum = static_cast<T*>(ops.host_staging[static_cast<std::size_t>(gpus)]);
  const auto chunks = static_cast<std::int64_t>((ops.n + kHostChunk - 1) / kHostChunk);
  for_each_chunk(chunks, [&](std::int64_t chunk) {
    const std::size_t first = static_cast<std::size_t>(chunk) * kHostChunk;
    const std::size_t last = std::min(ops.n, first + kHostChunk);
    const T* zero = static_cast<const T*>(ops.host_staging[0]);
    std::memcpy(sum + first, zero + first, (last - first) * sizeof(T));
    for (int g = 1; g < gpus; ++g) {
      const T* part = static_cast<const T*>(ops.host_staging[static_cast<std::size_t>(g)]);
      for (std::size_t i = first; i < last; ++i) sum[i] = sum_of(sum[i], part[i]);
    }
  });
  for (int g = 0; g < gpus; ++g) {
    ScopedDevice device(g);
    STEPWISE_CUDA_CHECK(
        cudaMemcpyAsync(ops.out[static_cast<std::size_t>(g)], sum, bytes, cudaMemcpyHostToDevice, team.stream(g)));
  }
}

void launch(const AllReduceOperands& ops, const LaunchShape&) {
  by_element(ops.type, [&](auto value) { launch_typed<decltype(value)>(ops); });
}

}  // namespace

AllReduceStage host_staged() {
  AllReduceStage stage;
  stage.name = "host-staged";
  stage.lesson = "every buffer to the host, the CPU adds, the sum back to every GPU: PCIe twice and a host wait";
  stage.synchronizes = true;
  stage.launch = launch;
  stage.traits.traffic = Traffic::host_staged;
  stage.traits.needs_host_staging = true;
  return stage;
}

}  // namespace stepwise::multigpu
