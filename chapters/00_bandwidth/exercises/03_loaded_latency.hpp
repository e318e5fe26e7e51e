/// @file 03_loaded_latency.hpp
/// Exercise 00-3 (README.md): Little's law read backwards, the latency a copy's loads see under
/// load, from what Nsight Compute measured of one kernel.
#pragma once

#include <cstddef>

namespace stepwise::bandwidth::exercises {

/// What Nsight Compute measured of one stage's kernel (the lecture's counters table).
struct KernelCounters {
  double bytes_per_thread = 0.0;  ///< bytes of loads one thread keeps in flight (the stage table's column)
  double warps_active_pct = 0.0;  ///< resident warps, as a percentage of the SM's maximum (64 warps, 2048 threads)
  double kernel_us = 0.0;         ///< the kernel's time in microseconds
};

/// One row of the lecture's "Little's law read backwards" table.
struct LoadedLatency {
  double resident_threads_per_sm = 0.0;  ///< the threads an SM holds on average
  double bytes_in_flight = 0.0;          ///< on the whole GPU (an upper bound: every thread waiting on its loads)
  double read_gbps = 0.0;                ///< the copy's read stream, GB/s
  double latency_ns = 0.0;               ///< the latency that bytes_in_flight at read_gbps implies
};

/// Your function: the row of a copy of @p n int32 on @p sm_count SMs whose kernel Nsight Compute
/// measured as @p counters.
LoadedLatency implied_latency(const KernelCounters& counters, std::size_t n, int sm_count);

}  // namespace stepwise::bandwidth::exercises
