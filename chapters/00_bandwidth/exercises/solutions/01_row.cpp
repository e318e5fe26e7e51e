// Exercise 00-1, solved. Each int32 is read once and written once: 8 bytes per element. GB/s is
// bytes over seconds over 10^9; the peak is the memory clock times 2 (double data rate) times the
// bus width in bytes; the percentages are GB/s over each reference.
#include "01_row.hpp"

namespace stepwise::bandwidth::exercises {

CopyRow predicted_row(std::size_t n, double median_ms, double memcpy_gbps, int memory_clock_khz, int bus_width_bits) {
  CopyRow row;
  row.bytes_moved = 8.0 * static_cast<double>(n);
  row.gbps = row.bytes_moved / (median_ms * 1e-3) / 1e9;
  row.pct_memcpy = 100.0 * row.gbps / memcpy_gbps;
  row.peak_gbps = 2.0 * (memory_clock_khz * 1e3) * (bus_width_bits / 8.0) / 1e9;
  row.pct_peak = 100.0 * row.gbps / row.peak_gbps;
  return row;
}

}  // namespace stepwise::bandwidth::exercises
