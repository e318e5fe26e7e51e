#include "model.hpp"

#include <algorithm>
#include <stdexcept>

namespace stepwise::multigpu {

TrafficCount traffic_of(Traffic traffic, double bytes, int gpus, int slices) {
  TrafficCount count;
  if (gpus <= 1 && traffic != Traffic::host_staged) return count;  // one GPU: a copy, nothing travels
  const double g = gpus;
  switch (traffic) {
    case Traffic::host_staged:
      count.sent = bytes;      // its buffer down to the host
      count.received = bytes;  // the sum back up
      count.steps = 2;
      break;
    case Traffic::through_root:
      count.sent = (g - 1) * bytes;      // GPU 0 broadcasts the sum to G - 1 GPUs
      count.received = (g - 1) * bytes;  // and receives G - 1 buffers
      count.steps = 2;
      break;
    case Traffic::ring:
    case Traffic::library:
      count.sent = 2.0 * (g - 1) / g * bytes;
      count.received = count.sent;
      count.steps = 2 * (gpus - 1);
      break;
    case Traffic::pipelined_ring:
      count.sent = 2.0 * (g - 1) / g * bytes;
      count.received = count.sent;
      // The slices follow each other: the last one leaves after slices - 1 others, then crosses every step.
      count.steps = 2 * (gpus - 1) + std::max(slices, 1) - 1;
      break;
  }
  return count;
}

double allreduce_bus_factor(int gpus) { return gpus <= 1 ? 0.0 : 2.0 * (gpus - 1) / gpus; }

double predicted_seconds(const TrafficCount& count, double alpha_s, double beta_bytes_per_s) {
  const double bytes = std::max(count.sent, count.received);
  return count.steps * alpha_s + (beta_bytes_per_s > 0.0 ? bytes / beta_bytes_per_s : 0.0);
}

double scan_least_seconds(std::uint64_t n, int gpus, double value_bytes, double read_bytes_per_s,
                          double copy_bytes_per_s) {
  if (gpus < 1) throw std::invalid_argument("scan_least_seconds: at least one GPU");
  if (!(read_bytes_per_s > 0.0) || !(copy_bytes_per_s > 0.0))
    throw std::invalid_argument("scan_least_seconds: the rates must be positive");
  const double part = static_cast<double>(n) / gpus;
  const double scan = part * 2.0 * value_bytes / copy_bytes_per_s;
  return gpus == 1 ? scan : part * value_bytes / read_bytes_per_s + scan;
}

AlphaBeta fit_alpha_beta(const std::vector<double>& bytes, const std::vector<double>& seconds) {
  if (bytes.size() != seconds.size()) throw std::invalid_argument("fit_alpha_beta: as many sizes as times");
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (!(seconds[i] > 0.0)) throw std::invalid_argument("fit_alpha_beta: a time that is not positive");
    const double w = 1.0 / (seconds[i] * seconds[i]);
    sw += w;
    sx += w * bytes[i];
    sy += w * seconds[i];
    sxx += w * bytes[i] * bytes[i];
    sxy += w * bytes[i] * seconds[i];
  }
  const double det = sw * sxx - sx * sx;
  const bool distinct =
      bytes.size() >= 2 && std::any_of(bytes.begin(), bytes.end(), [&](double x) { return x != bytes.front(); });
  if (!distinct || !(det > 0.0)) throw std::invalid_argument("fit_alpha_beta: needs two distinct sizes");
  const double slope = (sw * sxy - sx * sy) / det;
  AlphaBeta fit;
  fit.alpha_s = (sy - slope * sx) / sw;
  fit.beta_bytes_per_s = slope > 0.0 ? 1.0 / slope : 0.0;
  fit.points = static_cast<int>(bytes.size());
  return fit;
}

std::vector<std::uint64_t> sweep_bytes(std::uint64_t largest) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t bytes = 8; bytes <= largest; bytes *= 4) {
    sizes.push_back(bytes);
    if (bytes > largest / 4) break;
  }
  if (sizes.empty() || sizes.back() != largest) sizes.push_back(largest);
  return sizes;
}

std::string to_string(Traffic traffic) {
  switch (traffic) {
    case Traffic::host_staged:
      return "host-staged";
    case Traffic::through_root:
      return "through GPU 0";
    case Traffic::ring:
      return "ring";
    case Traffic::pipelined_ring:
      return "pipelined ring";
    case Traffic::library:
      return "NCCL";
  }
  return "?";
}

}  // namespace stepwise::multigpu
