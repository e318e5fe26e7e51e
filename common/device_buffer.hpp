/// @file device_buffer.hpp
/// An owning, typed device allocation.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "check.hpp"

namespace stepwise {

/// A `count`-element array in device memory, freed when the buffer goes away.
/// cudaMalloc aligns it to at least 256 bytes, so vector loads of any width are aligned.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// Allocates @p count elements (uninitialized). A count of 0 allocates nothing.
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) STEPWISE_CUDA_CHECK(cudaMalloc(&data_, count_ * sizeof(T)));
  }
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
  ~DeviceBuffer() {
    if (data_ != nullptr) cudaFree(data_);  // never throws from a destructor
  }

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
  /// Sets every byte to @p byte, in stream order.
  void fill_bytes(unsigned char byte, cudaStream_t stream = nullptr) {
    if (count_ > 0) STEPWISE_CUDA_CHECK(cudaMemsetAsync(data_, byte, bytes(), stream));
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

/// The byte pattern that poisons outputs before a check: NaN for floating point
/// (a NaN never passes a comparison), 0xCDCDCDCD for 32-bit integers.
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
