/// @file device.hpp
/// What the harness needs to know about the GPU it runs on. No CUDA header: the report
/// renderer uses DeviceInfo without the toolkit.
#pragma once

#include <cstddef>
#include <string>

namespace stepwise {

/// The device facts printed in every report header.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::size_t l2_bytes = 0;
  std::size_t global_bytes = 0;
  int max_threads_per_sm = 0;
  int memory_clock_khz = 0;  ///< the memory clock the device reports (cudaDevAttrMemoryClockRate)
  int bus_width_bits = 0;    ///< the DRAM interface width (cudaDevAttrGlobalMemoryBusWidth)
  int driver_version = 0;    ///< e.g. 13000 for CUDA 13.0 (cudaDriverGetVersion)
  int runtime_version = 0;   ///< the runtime the program was built with (cudaRuntimeGetVersion)
  /// Theoretical DRAM bandwidth in GB/s: memory clock x 2 (double data rate) x bus width.
  double peak_gbps = 0.0;
  /// `sm_90` for compute capability 9.0.
  std::string sm_name() const { return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor); }
};

/// Theoretical DRAM bandwidth in GB/s of a memory clocked at @p memory_clock_khz (as the device
/// reports it) on a bus of @p bus_width_bits: clock x 2 (double data rate) x bus width in bytes.
/// DeviceInfo::peak_gbps, the `% peak` column's reference.
constexpr double theoretical_peak_gbps(int memory_clock_khz, int bus_width_bits) {
  return 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9;
}

/// Whether this process can use a GPU, and if not, why.
enum class DeviceStatus {
  ok,              ///< at least one device
  no_driver,       ///< no CUDA driver installed (a machine without a GPU): "skipped"
  no_device,       ///< a driver, but no device: "skipped"
  driver_too_old,  ///< a driver older than the runtime this program was built with: an error
  error,           ///< any other failure of the first CUDA call: an error
};

/// What probe_devices() found.
struct DeviceProbe {
  DeviceStatus status = DeviceStatus::error;
  int count = 0;           ///< usable devices
  int driver_version = 0;  ///< 0 when no driver is installed
  int runtime_version = 0;
  std::string detail;  ///< the runtime's error name when status is error
  /// One line for people: why there is no usable GPU (empty when status is ok).
  std::string message() const;
  /// `13.0` from 13000.
  static std::string version_text(int version);
};

/// Asks the CUDA runtime how many devices there are, telling "no GPU here" (exit 77) from
/// "a driver too old for this program" (exit 1).
DeviceProbe probe_devices();

/// Reads the attributes of device @p ordinal.
DeviceInfo describe_device(int ordinal);

/// The SM count of the current device (read once per device), for sizing grids.
int current_sm_count();

/// Free device memory in bytes on the current device.
std::size_t free_device_bytes();

}  // namespace stepwise
