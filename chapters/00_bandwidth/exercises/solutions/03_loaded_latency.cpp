// Exercise 00-3, solved. Resident threads per SM: the active-warp percentage of the SM's 2048
// threads. Bytes in flight: every resident thread on every SM holding its bytes per thread. The
// read stream: half of the 8n bytes the copy moves, over the kernel's time. Little's law backwards:
// latency = bytes in flight / bytes per second.
#include "03_loaded_latency.hpp"

namespace stepwise::bandwidth::exercises {

LoadedLatency implied_latency(const KernelCounters& counters, std::size_t n, int sm_count) {
  LoadedLatency row;
  row.resident_threads_per_sm = counters.warps_active_pct / 100.0 * 2048.0;
  row.bytes_in_flight = row.resident_threads_per_sm * sm_count * counters.bytes_per_thread;
  row.read_gbps = 4.0 * static_cast<double>(n) / (counters.kernel_us * 1e-6) / 1e9;
  row.latency_ns = row.bytes_in_flight / (row.read_gbps * 1e9) * 1e9;
  return row;
}

}  // namespace stepwise::bandwidth::exercises
