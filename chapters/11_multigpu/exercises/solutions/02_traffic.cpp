// Exercise 11-2, solved: the host path moves the buffer twice on any G; the root moves G - 1
// buffers each way in 2 steps; the rings move 2 (G - 1) chunks of bytes / G in 2 (G - 1) steps,
// the pipelined one slices - 1 steps more; the time is alpha per step plus the larger bytes / beta.
#include "02_traffic.hpp"

#include <algorithm>

namespace stepwise::multigpu::exercises {

TrafficCount predicted_traffic(Traffic traffic, double bytes, int gpus, int slices) {
  TrafficCount count;
  if (traffic == Traffic::host_staged) return {bytes, bytes, 2};
  if (gpus <= 1) return count;
  const double others = gpus - 1;
  switch (traffic) {
    case Traffic::through_root:
      return {others * bytes, others * bytes, 2};
    case Traffic::ring:
    case Traffic::library:
      return {2.0 * others * bytes / gpus, 2.0 * others * bytes / gpus, 2 * (gpus - 1)};
    case Traffic::pipelined_ring:
      return {2.0 * others * bytes / gpus, 2.0 * others * bytes / gpus, 2 * (gpus - 1) + std::max(slices, 1) - 1};
    case Traffic::host_staged:
      break;
  }
  return count;
}

double predicted_bus_factor(int gpus) { return gpus <= 1 ? 0.0 : 2.0 * (gpus - 1) / gpus; }

double predicted_seconds_of(const TrafficCount& count, double alpha_s, double beta_bytes_per_s) {
  const double bytes = std::max(count.sent, count.received);
  return count.steps * alpha_s + (beta_bytes_per_s > 0.0 ? bytes / beta_bytes_per_s : 0.0);
}

}  // namespace stepwise::multigpu::exercises
