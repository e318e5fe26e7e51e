#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "check.hpp"

namespace stepwise {

TimingStats summarize(std::vector<double> samples_ms) {
  if (samples_ms.empty()) throw std::invalid_argument("summarize: no samples");
  std::sort(samples_ms.begin(), samples_ms.end());
  const std::size_t count = samples_ms.size();
  TimingStats stats;
  stats.reps = static_cast<int>(count);
  stats.min_ms = samples_ms.front();
  stats.max_ms = samples_ms.back();
  stats.median_ms = count % 2 == 1 ? samples_ms[count / 2] : 0.5 * (samples_ms[count / 2 - 1] + samples_ms[count / 2]);
  return stats;
}

L2Flusher::L2Flusher(std::size_t l2_bytes) : scratch_(std::max<std::size_t>(2 * l2_bytes, 1 << 20)) {}

void L2Flusher::flush(cudaStream_t stream) {
  // Alternate the byte so that no hardware shortcut can skip a write of unchanged data.
  static unsigned char byte = 0;
  scratch_.fill_bytes(++byte, stream);
}

namespace {

// Creates two events and destroys them on every path out of the timing loop.
struct EventPair {
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  EventPair() {
    STEPWISE_CUDA_CHECK(cudaEventCreate(&start));
    STEPWISE_CUDA_CHECK(cudaEventCreate(&stop));
  }
  ~EventPair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
};

}  // namespace

TimingStats time_gpu(const GpuWork& work, const TimingOptions& options, L2Flusher& flusher, cudaStream_t stream) {
  for (int i = 0; i < options.warmup; ++i) work(stream);
  STEPWISE_CUDA_CHECK(cudaStreamSynchronize(stream));

  EventPair events;
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(options.reps));
  for (int i = 0; i < options.reps; ++i) {
    if (options.flush_l2) flusher.flush(stream);
    STEPWISE_CUDA_CHECK(cudaEventRecord(events.start, stream));
    work(stream);
    STEPWISE_CUDA_CHECK(cudaEventRecord(events.stop, stream));
    STEPWISE_CUDA_CHECK(cudaEventSynchronize(events.stop));
    float elapsed_ms = 0.0f;
    STEPWISE_CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, events.start, events.stop));
    samples.push_back(elapsed_ms);
  }
  return summarize(std::move(samples));
}

TimingStats time_cpu(const std::function<void()>& work, int reps) {
  work();
  std::vector<double> samples;
  for (int i = 0; i < reps; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    const auto stop = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return summarize(std::move(samples));
}

double measure_memcpy_gbps(std::size_t bytes, const TimingOptions& options, L2Flusher& flusher) {
  DeviceBuffer<unsigned char> source(bytes);
  DeviceBuffer<unsigned char> destination(bytes);
  source.fill_bytes(0x5A);
  const TimingStats stats = time_gpu(
      [&](cudaStream_t stream) {
        STEPWISE_CUDA_CHECK(
            cudaMemcpyAsync(destination.data(), source.data(), bytes, cudaMemcpyDeviceToDevice, stream));
      },
      options, flusher);
  return 2.0 * static_cast<double>(bytes) / (stats.median_ms * 1e-3) / 1e9;
}

}  // namespace stepwise
