#include "host/device_buffer.hpp"

#include <map>
#include <string>

namespace stepwise {
namespace {

/// A live guarded allocation: its element bytes and the device it lives on.
struct Allocation {
  std::size_t bytes = 0;
  int device = 0;
};

/// Live guarded allocations: first element's address -> its bytes and device.
std::map<unsigned char*, Allocation>& live_allocations() {
  static std::map<unsigned char*, Allocation> allocations;
  return allocations;
}

/// How many bytes of a guard zone differ from the canary, and how far from the elements the
/// nearest of them is (1 = the byte right next to the first or last element).
struct Damage {
  std::size_t changed = 0;
  std::size_t nearest = 0;
};

Damage inspect(const std::vector<unsigned char>& guard, bool before) {
  Damage damage;
  for (std::size_t i = 0; i < guard.size(); ++i) {
    if (guard[i] == kCanaryByte) continue;
    if (damage.changed++ == 0 || before) damage.nearest = before ? guard.size() - i : i + 1;
  }
  return damage;
}

}  // namespace

namespace detail {

void* allocate_guarded(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* base = nullptr;
  STEPWISE_CUDA_CHECK(cudaMalloc(&base, bytes + 2 * kGuardBytes));
  auto* data = static_cast<unsigned char*>(base) + kGuardBytes;
  STEPWISE_CUDA_CHECK(cudaMemset(base, kCanaryByte, kGuardBytes));
  STEPWISE_CUDA_CHECK(cudaMemset(data + bytes, kCanaryByte, kGuardBytes));
  int device = 0;
  STEPWISE_CUDA_CHECK(cudaGetDevice(&device));
  live_allocations()[data] = Allocation{bytes, device};
  return data;
}

void free_guarded(void* data) noexcept {
  if (data == nullptr) return;
  auto* bytes = static_cast<unsigned char*>(data);
  live_allocations().erase(bytes);
  cudaFree(bytes - kGuardBytes);  // never throws from a destructor
}

}  // namespace detail

Check check_guard_zones() {
  int current = 0;
  STEPWISE_CUDA_CHECK(cudaGetDevice(&current));
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  Check result;
  std::vector<unsigned char> guard(kGuardBytes);
  for (const auto& [data, allocation] : live_allocations()) {
    // Every GPU's buffers are checked on their own device (a multi-GPU chapter allocates on each).
    const std::size_t bytes = allocation.bytes;
    STEPWISE_CUDA_CHECK(cudaSetDevice(allocation.device));
    if (allocation.device != current) STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    for (const bool before : {true, false}) {
      unsigned char* zone = before ? data - kGuardBytes : data + bytes;
      STEPWISE_CUDA_CHECK(cudaMemcpy(guard.data(), zone, kGuardBytes, cudaMemcpyDeviceToHost));
      const Damage damage = inspect(guard, before);
      if (damage.changed == 0) continue;
      STEPWISE_CUDA_CHECK(cudaMemset(zone, kCanaryByte, kGuardBytes));
      if (!result.passed) continue;  // report the first damaged zone; restore them all
      result.passed = false;
      result.detail = std::to_string(damage.changed) + " byte(s) written " +
                      (before ? "before the start" : "past the end") + " of a " + std::to_string(bytes) +
                      "-byte device buffer (the nearest " + std::to_string(damage.nearest) + " byte(s) " +
                      (before ? "before its first byte" : "after its last byte") + ")";
    }
  }
  STEPWISE_CUDA_CHECK(cudaSetDevice(current));
  return result;
}

}  // namespace stepwise
