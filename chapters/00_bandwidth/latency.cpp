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

InFlight littles_law(double memcpy_gbps, double ns_per_load, int sm_count) {
  InFlight law;
  law.read_gbps = memcpy_gbps / 2.0;
  law.bytes = law.read_gbps * 1e9 * ns_per_load * 1e-9;
  law.bytes_per_sm = law.bytes / sm_count;
  law.bytes_per_thread = law.bytes_per_sm / kThreadsPerSm;
  return law;
}

std::string latency_report(std::size_t l2_bytes, int sm_count, double memcpy_gbps, unsigned long long seed) {
  constexpr std::size_t kSteps = 200000;
  const ChaseResult l2 = pointer_chase(l2_bytes / 4, kSteps, seed);
  const ChaseResult mixed = pointer_chase(4 * l2_bytes, kSteps, seed);
  const ChaseResult dram = pointer_chase(dram_chase_bytes(l2_bytes, free_device_bytes()), kSteps, seed);
  const InFlight law = littles_law(memcpy_gbps, dram.ns_per_load, sm_count);
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
                "  %.1f bytes per thread at %d threads per SM.\n",
                dram.steps, format_bytes(static_cast<double>(l2.bytes)).c_str(), l2.ns_per_load,
                format_bytes(static_cast<double>(mixed.bytes)).c_str(), mixed.ns_per_load,
                format_bytes(static_cast<double>(dram.bytes)).c_str(), l2_multiple, dram.ns_per_load, law.read_gbps,
                memcpy_gbps, law.bytes / 1e6, law.bytes_per_sm / 1e3, sm_count, law.bytes_per_thread, kThreadsPerSm);
  return text;
}

}  // namespace stepwise::bandwidth
