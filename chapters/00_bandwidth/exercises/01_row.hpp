/// @file 01_row.hpp
/// Exercise 00-1 (README.md): one row of the chapter's table, from a copy's size and time: the
/// bytes it moves, its GB/s, and the two percentages every chapter prints.
#pragma once

#include <cstddef>

namespace stepwise::bandwidth::exercises {

/// The derived columns of one row of `chapter_00_bandwidth`'s table.
struct CopyRow {
  double bytes_moved = 0.0;  ///< bytes the copy moves through DRAM, read and written
  double gbps = 0.0;         ///< bytes_moved over the median time, in GB/s (10^9 bytes per second)
  double pct_memcpy = 0.0;   ///< gbps as a percentage of the run's memcpy bandwidth
  double peak_gbps = 0.0;    ///< the theoretical DRAM bandwidth of the GPU, in GB/s
  double pct_peak = 0.0;     ///< gbps as a percentage of peak_gbps
};

/// Your function: the row of a copy of @p n int32 that took @p median_ms milliseconds, in a run
/// whose memcpy reached @p memcpy_gbps, on a GPU whose DRAM is clocked at @p memory_clock_khz
/// (as the device reports it: double data rate, two transfers per clock) on a bus of
/// @p bus_width_bits bits.
CopyRow predicted_row(std::size_t n, double median_ms, double memcpy_gbps, int memory_clock_khz, int bus_width_bits);

}  // namespace stepwise::bandwidth::exercises
