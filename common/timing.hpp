/// @file timing.hpp
/// Timing GPU work honestly: CUDA events, warm-up, the median of repetitions, and
/// the L2 cache flushed before every repetition unless the caller asks otherwise.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "device_buffer.hpp"

namespace stepwise {

/// Summary of repeated measurements, in milliseconds.
struct TimingStats {
  double median_ms = 0.0;
  double min_ms = 0.0;
  double max_ms = 0.0;
  int reps = 0;
};

/// Median, min and max of @p samples_ms (the median of an even count is the mean of the middle two).
/// @throws std::invalid_argument if @p samples_ms is empty.
TimingStats summarize(std::vector<double> samples_ms);

/// How to time: repetitions, warm-up launches, and whether to flush L2 before each repetition.
struct TimingOptions {
  int reps = 20;
  int warmup = 3;
  bool flush_l2 = true;
};

/// Evicts the L2 cache by writing a buffer twice its size, so that a timed repetition
/// starts with its inputs in DRAM, as a first touch of data larger than L2 would.
class L2Flusher {
 public:
  explicit L2Flusher(std::size_t l2_bytes);
  /// Enqueues the flush on @p stream.
  void flush(cudaStream_t stream);

 private:
  DeviceBuffer<unsigned char> scratch_;
};

/// A piece of GPU work: every launch of one stage, enqueued on the given stream.
using GpuWork = std::function<void(cudaStream_t)>;

/// Times @p work with CUDA events: @p options.warmup untimed runs, then @p options.reps
/// timed runs, each preceded (outside the events) by an L2 flush when options.flush_l2.
TimingStats time_gpu(const GpuWork& work, const TimingOptions& options, L2Flusher& flusher,
                     cudaStream_t stream = nullptr);

/// Times host work with a steady clock: one warm-up run, then @p reps timed runs.
TimingStats time_cpu(const std::function<void()>& work, int reps);

/// Measures device-to-device cudaMemcpyAsync bandwidth on a buffer of @p bytes (counting
/// bytes read plus bytes written, as the chapters count a copy), in GB/s (1e9 bytes/s).
double measure_memcpy_gbps(std::size_t bytes, const TimingOptions& options, L2Flusher& flusher);

}  // namespace stepwise
