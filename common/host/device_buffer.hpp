/// @file device_buffer.hpp
/// An owning, typed device allocation with guard zones.
///
/// Every DeviceBuffer allocates kGuardBytes of canary bytes before and after its elements.
/// A kernel that writes one element past n (or before 0) changes a canary; the harness
/// calls check_guard_zones() after every verified run and reports such a write as a FAIL
/// of the stage, where without guards it would land unseen in the allocation's padding.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "host/check.hpp"
#include "host/verify.hpp"

namespace stepwise {

/// Bytes of canary before and after every DeviceBuffer: a multiple of 256, so the
/// elements keep cudaMalloc's 256-byte alignment and vector loads of any width stay aligned.
inline constexpr std::size_t kGuardBytes = 256;
/// The canary byte. It differs from both poison bytes, so a poisoned element written one
/// past the end is told apart from an untouched guard.
inline constexpr unsigned char kCanaryByte = 0xA5;

namespace detail {
/// Allocates @p bytes with guard zones (filled with the canary) and registers them; returns
/// the first element's address. @p bytes = 0 allocates nothing and returns nullptr.
void* allocate_guarded(std::size_t bytes);
/// Unregisters and frees an allocation of allocate_guarded (nullptr is ignored; never throws).
void free_guarded(void* data) noexcept;
}  // namespace detail

/// Checks the guard zones of every live DeviceBuffer, then restores them, so that the next
/// check judges the next run alone. Synchronizes with the device (with every device that holds
/// one: each buffer is checked on the device it was allocated on).
/// @return a failed Check naming the buffer's size and how far outside it the writes landed.
Check check_guard_zones();

/// A `count`-element array in device memory, freed when the buffer goes away.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// Allocates @p count elements (uninitialized) between two guard zones. A count of 0
  /// allocates nothing.
  explicit DeviceBuffer(std::size_t count)
      : data_(static_cast<T*>(detail::allocate_guarded(count * sizeof(T)))), count_(count) {}
  /// Allocates and copies @p host to the device.
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  ~DeviceBuffer() { detail::free_guarded(data_); }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }

  /// Copies @p host (at most size() elements) to the start of the buffer.
  void upload(const std::vector<T>& host) {
    if (!host.empty())
      STEPWISE_CUDA_CHECK(cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  /// Copies the whole buffer back to the host (synchronizes).
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ > 0) STEPWISE_CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  /// Copies the whole buffer back into @p host, resized to size() (synchronizes). A vector kept
  /// from one check to the next has its pages mapped already: at 2^30 elements and more the
  /// copy then costs the transfer alone, not a first touch of every page as download()'s does.
  void download_into(std::vector<T>& host) const {
    host.resize(count_);
    if (count_ > 0) STEPWISE_CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
  }
  /// Copies the whole buffer to @p host, which holds size() elements (synchronizes): one part of
  /// a larger host array.
  void download_to(T* host) const {
    if (count_ > 0) STEPWISE_CUDA_CHECK(cudaMemcpy(host, data_, bytes(), cudaMemcpyDeviceToHost));
  }
  /// Sets every byte to @p byte, in stream order.
  void fill_bytes(unsigned char byte, cudaStream_t stream = nullptr) {
    if (count_ > 0) STEPWISE_CUDA_CHECK(cudaMemsetAsync(data_, byte, bytes(), stream));
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

/// The byte pattern that poisons outputs before a check: NaN for floating point
/// (a NaN never passes a comparison), 0xCDCDCDCD for integers.
template <class T>
constexpr unsigned char poison_byte() {
  return std::is_floating_point<T>::value ? 0xFF : 0xCD;
}

/// Fills @p buffer with poison_byte<T>() so that an element no stage writes is caught.
template <class T>
void poison(DeviceBuffer<T>& buffer, cudaStream_t stream = nullptr) {
  buffer.fill_bytes(poison_byte<T>(), stream);
}

}  // namespace stepwise
