#include <algorithm>
#include <cstdio>
#include <string>

#include "host/sizes.hpp"
#include "latency.hpp"

namespace stepwise::bandwidth {

std::size_t dram_chase_bytes(std::size_t l2_bytes, std::size_t free_bytes) {
  constexpr std::size_t kAtLeast = std::size_t{2} << 30;
  return std::min(std::max(kAtLeast, 40 * l2_bytes), free_bytes / 2);
}

std::string latency_report(std::size_t l2_bytes, int sm_count, double memcpy_gbps, unsigned long long seed) {
  constexpr std::size_t kSteps = 200000;
  const ChaseResult l2 = pointer_chase(l2_bytes / 4, kSteps, seed);
  const ChaseResult mixed = pointer_chase(4 * l2_bytes, kSteps, seed);
  const ChaseResult dram = pointer_chase(dram_chase_bytes(l2_bytes, free_device_bytes()), kSteps, seed);
  // A copy reads and writes the same bytes: half of memcpy's bandwidth is its read stream, and
  // only reads wait for DRAM (a store leaves the SM at once). Little's law: in flight = rate x latency.
  const double read_gbps = memcpy_gbps / 2.0;
  const double in_flight_bytes = read_gbps * 1e9 * dram.ns_per_load * 1e-9;
  const double l2_multiple = static_cast<double>(dram.bytes) / static_cast<double>(l2_bytes);
  char text[1536];
  std::snprintf(text, sizeof text,
                "pointer chase, one thread, %zu dependent loads of random 128-byte lines\n"
                "(after a warm-up walk of as many loads, on other lines where the buffer has them):\n"
                "  over %s (L2 / 4): %.0f ns per load (L2)\n"
                "  over %s (4 x L2): %.0f ns per load (L2 and DRAM)\n"
                "  over %s (%.0f x L2): %.0f ns per load (DRAM)\n"
                "Little's law for a copy at memcpy speed: its read stream is %.0f GB/s (half of %.0f GB/s),\n"
                "  so %.1f MB of loads must be in flight: %.1f KB per SM (%d SMs),\n"
                "  %.1f bytes per thread at 2048 threads per SM.\n",
                dram.steps, format_bytes(static_cast<double>(l2.bytes)).c_str(), l2.ns_per_load,
                format_bytes(static_cast<double>(mixed.bytes)).c_str(), mixed.ns_per_load,
                format_bytes(static_cast<double>(dram.bytes)).c_str(), l2_multiple, dram.ns_per_load, read_gbps,
                memcpy_gbps, in_flight_bytes / 1e6, in_flight_bytes / sm_count / 1e3, sm_count,
                in_flight_bytes / sm_count / 2048);
  return text;
}

}  // namespace stepwise::bandwidth
