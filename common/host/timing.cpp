#include "host/timing.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "host/check.hpp"

namespace stepwise {
namespace {

/// How long the holding kernel waits for the host before giving up: far longer than any
/// launch sequence takes to enqueue, short enough that a mistake is reported soon.
constexpr unsigned long long kHoldTimeoutNs = 5'000'000'000ull;
/// The probe's hold: if launching it takes this long, the launch waited for the kernel to end.
constexpr unsigned long long kProbeTimeoutNs = 50'000'000ull;

}  // namespace

const char* to_string(Flush flush) {
  switch (flush) {
    case Flush::read:
      return "read";
    case Flush::write:
      return "write";
    case Flush::none:
      return "none";
  }
  return "?";
}

L2Flusher::L2Flusher(std::size_t l2_bytes) : scratch_(buffer_bytes(l2_bytes)), sink_(1) { scratch_.fill_bytes(0x5A); }

void L2Flusher::flush(Flush mode, cudaStream_t stream) {
  if (mode == Flush::write) {
    static unsigned char byte = 0;  // alternate the byte so that no write of unchanged data can be skipped
    scratch_.fill_bytes(++byte == kCanaryByte ? ++byte : byte, stream);
  } else if (mode == Flush::read) {
    detail::enqueue_read_flush(scratch_.data(), scratch_.bytes(), sink_.data(), stream);
  }
}

void L2Flusher::touch(cudaStream_t stream) { detail::enqueue_read_flush(scratch_.data(), 16, sink_.data(), stream); }

GpuTimer::GpuTimer(std::size_t l2_bytes) : flusher_(l2_bytes) {
  void* flags = nullptr;
  STEPWISE_CUDA_CHECK(cudaHostAlloc(&flags, 2 * sizeof(int), cudaHostAllocMapped));
  release_flag_ = static_cast<int*>(flags);
  timed_out_flag_ = static_cast<int*>(flags) + 1;
  *release_flag_ = 1;
  *timed_out_flag_ = 0;
  STEPWISE_CUDA_CHECK(cudaEventCreate(&start_));
  STEPWISE_CUDA_CHECK(cudaEventCreate(&stop_));
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  // Can the stream be held? Launch a hold that nobody releases, then what a timed repetition
  // enqueues behind it (a kernel and an event): asynchronous calls return at once; where a tool
  // serializes launches (compute-sanitizer does), one of them returns only when the hold has
  // timed out, and the hold says so.
  *release_flag_ = 0;
  *timed_out_flag_ = 0;
  const auto before = std::chrono::steady_clock::now();
  detail::enqueue_hold(release_flag_, timed_out_flag_, kProbeTimeoutNs, nullptr);
  flusher_.touch(nullptr);
  STEPWISE_CUDA_CHECK(cudaEventRecord(start_, nullptr));
  const auto launched = std::chrono::steady_clock::now();
  release();
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  holds_stream_ = launched - before < std::chrono::nanoseconds(kProbeTimeoutNs / 2) && *timed_out_flag_ == 0;
  *timed_out_flag_ = 0;
}

GpuTimer::~GpuTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
  cudaFreeHost(const_cast<int*>(release_flag_));
}

void GpuTimer::flush(Flush mode, cudaStream_t stream) { flusher_.flush(mode, stream); }

void GpuTimer::hold(cudaStream_t stream) {
  if (!holds_stream_) return;
  *release_flag_ = 0;
  detail::enqueue_hold(release_flag_, timed_out_flag_, kHoldTimeoutNs, stream);
}

void GpuTimer::release() { *release_flag_ = 1; }

TimingStats GpuTimer::time(const GpuWork& work, const TimingOptions& options, cudaStream_t stream) {
  for (int i = 0; i < options.warmup; ++i) work(stream);
  STEPWISE_CUDA_CHECK(cudaStreamSynchronize(stream));

  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(options.reps));
  for (int i = 0; i < options.reps; ++i) {
    *timed_out_flag_ = 0;
    if (options.hold) hold(stream);
    try {
      flush(options.flush, stream);
      STEPWISE_CUDA_CHECK(cudaEventRecord(start_, stream));
      work(stream);
      STEPWISE_CUDA_CHECK(cudaEventRecord(stop_, stream));
    } catch (...) {
      release();
      throw;
    }
    release();
    STEPWISE_CUDA_CHECK(cudaEventSynchronize(stop_));
    if (*timed_out_flag_ != 0)
      throw std::runtime_error(
          "timing: the timed work waited for the GPU while the stream was held "
          "(a stage must only enqueue work, never synchronize)");
    float elapsed_ms = 0.0f;
    STEPWISE_CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, start_, stop_));
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

double measure_memcpy_gbps(std::size_t bytes, const TimingOptions& options, GpuTimer& timer) {
  DeviceBuffer<unsigned char> source(bytes);
  DeviceBuffer<unsigned char> destination(bytes);
  source.fill_bytes(0x5A);
  const TimingStats stats = timer.time(
      [&](cudaStream_t stream) {
        STEPWISE_CUDA_CHECK(
            cudaMemcpyAsync(destination.data(), source.data(), bytes, cudaMemcpyDeviceToDevice, stream));
      },
      options);
  return 2.0 * static_cast<double>(bytes) / (stats.median_ms * 1e-3) / 1e9;
}

}  // namespace stepwise
