#include "host/device.hpp"

#include <cuda_runtime.h>

#include "host/check.hpp"

namespace stepwise {

std::string DeviceProbe::version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string DeviceProbe::message() const {
  switch (status) {
    case DeviceStatus::ok:
      return "";
    case DeviceStatus::no_driver:
      return "no CUDA-capable GPU found (no CUDA driver is installed)";
    case DeviceStatus::no_device:
      return "no CUDA-capable GPU found";
    case DeviceStatus::driver_too_old:
      return "the CUDA driver (" + version_text(driver_version) + ") is older than the CUDA runtime this program was " +
             "built with (" + version_text(runtime_version) + "): update the driver or build with an older toolkit";
    case DeviceStatus::error:
      return "the CUDA runtime could not count the GPUs: " + detail;
  }
  return detail;
}

DeviceProbe probe_devices() {
  DeviceProbe probe;
  cudaDriverGetVersion(&probe.driver_version);  // 0 when no driver is installed
  cudaRuntimeGetVersion(&probe.runtime_version);
  const cudaError_t code = cudaGetDeviceCount(&probe.count);
  if (code == cudaSuccess) {
    probe.status = probe.count > 0 ? DeviceStatus::ok : DeviceStatus::no_device;
    return probe;
  }
  (void)cudaGetLastError();
  probe.count = 0;
  probe.detail = cudaGetErrorName(code);
  if (code == cudaErrorNoDevice) {
    probe.status = DeviceStatus::no_device;
  } else if (probe.driver_version == 0) {
    probe.status = DeviceStatus::no_driver;
  } else if (code == cudaErrorInsufficientDriver || probe.driver_version < probe.runtime_version) {
    probe.status = DeviceStatus::driver_too_old;
  } else {
    probe.status = DeviceStatus::error;
  }
  return probe;
}

DeviceInfo describe_device(int ordinal) {
  cudaDeviceProp prop{};
  STEPWISE_CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
  DeviceInfo info;
  info.ordinal = ordinal;
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  info.global_bytes = prop.totalGlobalMem;
  info.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  STEPWISE_CUDA_CHECK(cudaDeviceGetAttribute(&info.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
  STEPWISE_CUDA_CHECK(cudaDeviceGetAttribute(&info.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal));
  STEPWISE_CUDA_CHECK(cudaDriverGetVersion(&info.driver_version));
  STEPWISE_CUDA_CHECK(cudaRuntimeGetVersion(&info.runtime_version));
  info.peak_gbps = theoretical_peak_gbps(info.memory_clock_khz, info.bus_width_bits);
  return info;
}

int current_sm_count() {
  static int cached_device = -1;
  static int cached_count = 0;
  int device = 0;
  STEPWISE_CUDA_CHECK(cudaGetDevice(&device));
  if (device != cached_device) {
    STEPWISE_CUDA_CHECK(cudaDeviceGetAttribute(&cached_count, cudaDevAttrMultiProcessorCount, device));
    cached_device = device;
  }
  return cached_count;
}

std::size_t free_device_bytes() {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  STEPWISE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

}  // namespace stepwise
