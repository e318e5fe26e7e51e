#include "host/multi_device.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "host/check.hpp"
#include "host/device.hpp"
#include "host/timing.hpp"

namespace stepwise {
namespace {

/// How long a holding kernel waits for the host (as GpuTimer's).
constexpr unsigned long long kHoldTimeoutNs = 5'000'000'000ull;
/// The probe's hold: if launching behind it takes this long, launches are synchronous.
constexpr unsigned long long kProbeTimeoutNs = 50'000'000ull;

}  // namespace

ScopedDevice::ScopedDevice(int ordinal) {
  STEPWISE_CUDA_CHECK(cudaGetDevice(&previous_));
  STEPWISE_CUDA_CHECK(cudaSetDevice(ordinal));
}

ScopedDevice::~ScopedDevice() { cudaSetDevice(previous_); }  // never throws from a destructor

int visible_device_count() {
  const DeviceProbe probe = probe_devices();
  return probe.status == DeviceStatus::ok ? probe.count : 0;
}

DeviceTeam::DeviceTeam(int count) {
  if (count < 1) throw std::invalid_argument("a device team needs at least one GPU");
  for (int member = 0; member < count; ++member) {
    ScopedDevice device(member);
    cudaStream_t stream = nullptr;
    STEPWISE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    streams_.push_back(stream);
    cudaEvent_t event = nullptr;
    STEPWISE_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    joins_.push_back(event);
  }
}

DeviceTeam::~DeviceTeam() {
  for (std::size_t member = 0; member < streams_.size(); ++member) {
    cudaSetDevice(static_cast<int>(member));
    cudaEventDestroy(joins_[member]);
    cudaStreamDestroy(streams_[member]);
  }
}

void DeviceTeam::synchronize() const {
  for (int member = 0; member < size(); ++member) {
    ScopedDevice device(member);
    STEPWISE_CUDA_CHECK(cudaStreamSynchronize(stream(member)));
  }
}

void DeviceTeam::join() const {
  if (size() == 1) return;
  for (int member = 0; member < size(); ++member) {
    ScopedDevice device(member);
    STEPWISE_CUDA_CHECK(cudaEventRecord(joins_[static_cast<std::size_t>(member)], stream(member)));
  }
  for (int member = 0; member < size(); ++member) {
    ScopedDevice device(member);
    for (int other = 0; other < size(); ++other)
      if (other != member)
        STEPWISE_CUDA_CHECK(cudaStreamWaitEvent(stream(member), joins_[static_cast<std::size_t>(other)], 0));
  }
}

TeamTimer::TeamTimer(const DeviceTeam& team) : team_(team) {
  void* flags = nullptr;
  // Portable: every device of the team polls the same flag.
  STEPWISE_CUDA_CHECK(cudaHostAlloc(&flags, 2 * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  release_flag_ = static_cast<int*>(flags);
  timed_out_flag_ = static_cast<int*>(flags) + 1;
  *release_flag_ = 1;
  *timed_out_flag_ = 0;
  for (int member = 0; member < team.size(); ++member) {
    ScopedDevice device(member);
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    STEPWISE_CUDA_CHECK(cudaEventCreate(&start));
    STEPWISE_CUDA_CHECK(cudaEventCreate(&stop));
    starts_.push_back(start);
    stops_.push_back(stop);
  }
  // Can the streams be held? The probe GpuTimer makes, on the first member's stream.
  ScopedDevice device(0);
  *release_flag_ = 0;
  const auto before = std::chrono::steady_clock::now();
  detail::enqueue_hold(release_flag_, timed_out_flag_, kProbeTimeoutNs, team.stream(0));
  STEPWISE_CUDA_CHECK(cudaEventRecord(starts_[0], team.stream(0)));
  const auto launched = std::chrono::steady_clock::now();
  release();
  STEPWISE_CUDA_CHECK(cudaStreamSynchronize(team.stream(0)));
  holds_streams_ = launched - before < std::chrono::nanoseconds(kProbeTimeoutNs / 2) && *timed_out_flag_ == 0;
  *timed_out_flag_ = 0;
}

TeamTimer::~TeamTimer() {
  for (std::size_t member = 0; member < starts_.size(); ++member) {
    cudaSetDevice(static_cast<int>(member));
    cudaEventDestroy(starts_[member]);
    cudaEventDestroy(stops_[member]);
    if (member < flushers_.size()) flushers_[member].reset();
  }
  cudaFreeHost(const_cast<int*>(release_flag_));
}

void TeamTimer::make_flushers() {
  if (!flushers_.empty()) return;
  for (int member = 0; member < team_.size(); ++member) {
    ScopedDevice device(member);
    int l2_bytes = 0;
    STEPWISE_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, member));
    flushers_.push_back(std::make_unique<L2Flusher>(static_cast<std::size_t>(l2_bytes)));
  }
  for (int member = 0; member < team_.size(); ++member) {
    ScopedDevice device(member);
    STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());  // the scratch buffers' fills are done
  }
}

TimingStats TeamTimer::time(const TeamWork& work, const TimingOptions& options) {
  if (options.flush != Flush::none) make_flushers();
  for (int i = 0; i < options.warmup; ++i) work(team_);
  team_.synchronize();
  const bool hold = options.hold && holds_streams_;
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(options.reps));
  for (int rep = 0; rep < options.reps; ++rep) {
    *timed_out_flag_ = 0;
    *release_flag_ = hold ? 0 : 1;
    try {
      for (int member = 0; member < team_.size(); ++member) {
        ScopedDevice device(member);
        if (options.flush != Flush::none)
          flushers_[static_cast<std::size_t>(member)]->flush(options.flush, team_.stream(member));
        if (hold) detail::enqueue_hold(release_flag_, timed_out_flag_, kHoldTimeoutNs, team_.stream(member));
        STEPWISE_CUDA_CHECK(cudaEventRecord(starts_[static_cast<std::size_t>(member)], team_.stream(member)));
      }
      work(team_);
      for (int member = 0; member < team_.size(); ++member) {
        ScopedDevice device(member);
        STEPWISE_CUDA_CHECK(cudaEventRecord(stops_[static_cast<std::size_t>(member)], team_.stream(member)));
      }
    } catch (...) {
      release();
      throw;
    }
    release();
    std::vector<double> per_gpu;
    for (int member = 0; member < team_.size(); ++member) {
      ScopedDevice device(member);
      STEPWISE_CUDA_CHECK(cudaEventSynchronize(stops_[static_cast<std::size_t>(member)]));
      float elapsed_ms = 0.0f;
      STEPWISE_CUDA_CHECK(cudaEventElapsedTime(&elapsed_ms, starts_[static_cast<std::size_t>(member)],
                                               stops_[static_cast<std::size_t>(member)]));
      per_gpu.push_back(elapsed_ms);
    }
    if (*timed_out_flag_ != 0)
      throw std::runtime_error(
          "timing: the timed work waited for the GPUs while their streams were held "
          "(a stage that synchronizes must say so)");
    samples.push_back(slowest_ms(per_gpu));
  }
  return summarize(std::move(samples));
}

double slowest_ms(const std::vector<double>& per_gpu_ms) {
  if (per_gpu_ms.empty()) throw std::invalid_argument("slowest_ms: no GPU times");
  return *std::max_element(per_gpu_ms.begin(), per_gpu_ms.end());
}

}  // namespace stepwise
