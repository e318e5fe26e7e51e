/// @file timing.hpp
/// Timing GPU work honestly: CUDA events, warm-up, the median of repetitions, the L2 cache
/// flushed before every repetition unless asked otherwise, and the stream held while the
/// timed work is enqueued, so that no launch delay falls inside the timed window.
/// docs/measuring.md explains each choice and shows what it changes.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

#include "host/device_buffer.hpp"
#include "host/types.hpp"

namespace stepwise {

/// How the L2 cache is emptied before each timed repetition.
enum class Flush {
  read,   ///< read a buffer twice the L2's size: evicts everything and leaves only clean lines (the default)
  write,  ///< write (memset) such a buffer: evicts too, but leaves L2 full of dirty lines the timed work pays to
          ///< write back; kept to show that cost (docs/measuring.md)
  none,   ///< no flush (--warm-cache): inputs that fit in L2 stay there between repetitions
};

/// `read`, `write` or `none`.
const char* to_string(Flush flush);

/// How to time: repetitions, warm-up runs, and the flush before each repetition.
struct TimingOptions {
  int reps = 20;
  int warmup = 3;
  Flush flush = Flush::read;
  /// False for work that synchronizes with the host by design (StageInfo::synchronizes): the
  /// stream is not held, and the time includes the host's part of the work.
  bool hold = true;
};

/// Empties the L2 cache of the device that was current when it was made, before a timed
/// repetition: it reads (Flush::read) or writes (Flush::write) a scratch buffer twice the L2.
class L2Flusher {
 public:
  /// Allocates the scratch buffer on the current device: buffer_bytes(@p l2_bytes).
  explicit L2Flusher(std::size_t l2_bytes);

  /// The scratch buffer's size for an L2 of @p l2_bytes: twice the L2, at least 1 MiB.
  static std::size_t buffer_bytes(std::size_t l2_bytes) { return std::max<std::size_t>(2 * l2_bytes, 1 << 20); }

  /// Enqueues one flush on @p stream, a stream of the flusher's device (nothing for Flush::none).
  void flush(Flush mode, cudaStream_t stream);

  /// Enqueues a read of the buffer's first 16 bytes: a kernel of the flush's kind that takes no
  /// time, for probing whether launches are asynchronous.
  void touch(cudaStream_t stream);

 private:
  DeviceBuffer<unsigned char> scratch_;
  DeviceBuffer<unsigned> sink_;
};

/// A piece of GPU work: every launch of one stage, enqueued on the given stream. It must not
/// synchronize with the host (the stream is held while it is enqueued) unless it is timed with
/// TimingOptions::hold false.
using GpuWork = std::function<void(cudaStream_t)>;

/// Times GPU work with CUDA events. Each repetition:
///  1. a small kernel holds the stream (it spins on a flag in pinned host memory);
///  2. the flush, the start event, the work and the stop event are enqueued behind it;
///  3. the host releases the flag: the GPU runs flush, start, work, stop back to back, so the
///     start event is recorded when the GPU is ready for the work, not while the host is
///     still launching it (which, with an idle GPU, would time the launch).
class GpuTimer {
 public:
  /// @p l2_bytes sizes the flush buffer (twice the L2, at least 1 MiB).
  explicit GpuTimer(std::size_t l2_bytes);
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  /// @p options.warmup untimed runs, then @p options.reps timed ones; their summary.
  /// @throws std::runtime_error if @p work synchronized with the host while the stream was held.
  TimingStats time(const GpuWork& work, const TimingOptions& options, cudaStream_t stream = nullptr);

  /// Enqueues one flush of L2 on @p stream (nothing for Flush::none).
  void flush(Flush mode, cudaStream_t stream);

  /// False when launches are synchronous in this process (a tool like compute-sanitizer
  /// serializes them): the stream cannot be held then, and times include launch delays.
  bool holds_stream() const { return holds_stream_; }

 private:
  void hold(cudaStream_t stream);
  void release();

  L2Flusher flusher_;
  volatile int* release_flag_ = nullptr;  ///< pinned, mapped host memory the holding kernel polls
  int* timed_out_flag_ = nullptr;         ///< pinned: set by the holding kernel if nobody released it
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  bool holds_stream_ = true;
};

/// Times host work with a steady clock: one warm-up run, then @p reps timed runs.
TimingStats time_cpu(const std::function<void()>& work, int reps);

/// Measures device-to-device cudaMemcpyAsync bandwidth on a buffer of @p bytes (counting
/// bytes read plus bytes written, as the chapters count a copy), in GB/s (1e9 bytes/s).
double measure_memcpy_gbps(std::size_t bytes, const TimingOptions& options, GpuTimer& timer);

namespace detail {
/// Enqueues the read flush: every 16-byte word of @p scratch is loaded once.
void enqueue_read_flush(const unsigned char* scratch, std::size_t bytes, unsigned* sink, cudaStream_t stream);
/// Enqueues the holding kernel: spins until *@p release is nonzero, or sets *@p timed_out after @p timeout_ns.
void enqueue_hold(const volatile int* release, int* timed_out, unsigned long long timeout_ns, cudaStream_t stream);
}  // namespace detail

}  // namespace stepwise
