/// @file device.hpp
/// What the harness needs to know about the GPU it runs on.
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
  /// Theoretical DRAM bandwidth: memory clock x 2 (double data rate) x bus width.
  double peak_gbps = 0.0;
  /// `sm_90` for compute capability 9.0.
  std::string sm_name() const { return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor); }
};

/// Number of usable CUDA devices: 0 when there is no GPU or no working driver.
int cuda_device_count();

/// Reads the attributes of device @p ordinal.
DeviceInfo describe_device(int ordinal);

/// The SM count of the current device (read once per device), for sizing grids.
int current_sm_count();

/// Free device memory in bytes on the current device.
std::size_t free_device_bytes();

}  // namespace stepwise
