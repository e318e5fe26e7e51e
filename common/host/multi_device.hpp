/// @file multi_device.hpp
/// One process driving several GPUs: the team of the first K visible devices with a stream on
/// each, a scoped switch of the current device, and a timer that times work spread over every
/// GPU of the team and keeps, for each repetition, the slowest GPU's time.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <memory>
#include <vector>

#include "host/timing.hpp"
#include "host/types.hpp"

namespace stepwise {

/// Makes @p ordinal the current device for the scope's lifetime, then restores the previous one.
class ScopedDevice {
 public:
  explicit ScopedDevice(int ordinal);
  ~ScopedDevice();
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

 private:
  int previous_ = 0;
};

/// The number of devices this process can use (0 without a driver or a device).
int visible_device_count();

/// The first @p count visible devices, each with a non-blocking stream of its own.
class DeviceTeam {
 public:
  /// @throws std::invalid_argument if @p count is below 1 (callers refuse a count above
  ///   visible_device_count() themselves, with the option the user typed).
  explicit DeviceTeam(int count);
  ~DeviceTeam();
  DeviceTeam(const DeviceTeam&) = delete;
  DeviceTeam& operator=(const DeviceTeam&) = delete;

  /// How many GPUs the team drives.
  int size() const { return static_cast<int>(streams_.size()); }
  /// The device ordinal of team member @p member (members are devices 0..size()-1).
  int ordinal(int member) const { return member; }
  /// The stream of member @p member, on its device.
  cudaStream_t stream(int member) const { return streams_[static_cast<std::size_t>(member)]; }
  /// Waits for every member's stream.
  void synchronize() const;
  /// Makes every member's stream wait for the work enqueued so far on every other member's
  /// stream (one event per member): a barrier across the team, enqueued, never on the host.
  void join() const;

 private:
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> joins_;
};

/// Work spread over a team: it enqueues on the members' streams and must not synchronize with
/// the host unless timed with TimingOptions::hold false.
using TeamWork = std::function<void(const DeviceTeam&)>;

/// Times work spread over a team with CUDA events on every GPU. Each repetition:
///  1. every member's L2 is flushed as TimingOptions::flush says (Flush::none leaves the caches
///     warm, as NVIDIA's nccl-tests do; the flush runs before the hold, outside the timed window);
///  2. a small kernel holds each member's stream (they all spin on one flag in pinned host memory);
///  3. a start event, the work and a stop event are enqueued on every member behind it;
///  4. the host releases the flag: every GPU starts at once, and the repetition's time is the
///     slowest GPU's, the largest stop - start over the team (a collective is done when its
///     last GPU is).
class TeamTimer {
 public:
  explicit TeamTimer(const DeviceTeam& team);
  ~TeamTimer();
  TeamTimer(const TeamTimer&) = delete;
  TeamTimer& operator=(const TeamTimer&) = delete;

  /// @p options.warmup untimed runs, then @p options.reps timed ones: the summary of each
  /// repetition's slowest-GPU time.
  /// @throws std::runtime_error if @p work synchronized with the host while the streams were held.
  TimingStats time(const TeamWork& work, const TimingOptions& options);

  /// False when launches are synchronous in this process (compute-sanitizer): the streams
  /// cannot be held then, and times include launch delays.
  bool holds_streams() const { return holds_streams_; }

 private:
  void release() { *release_flag_ = 1; }

  /// Makes each member's flusher, on its own device, the first time a flush is asked for.
  void make_flushers();

  const DeviceTeam& team_;
  std::vector<std::unique_ptr<L2Flusher>> flushers_;  ///< one a member, once a flush is asked for
  volatile int* release_flag_ = nullptr;
  int* timed_out_flag_ = nullptr;
  std::vector<cudaEvent_t> starts_;
  std::vector<cudaEvent_t> stops_;
  bool holds_streams_ = true;
};

/// The largest of @p per_gpu_ms: the time of a step that ends when its slowest GPU does.
double slowest_ms(const std::vector<double>& per_gpu_ms);

}  // namespace stepwise
