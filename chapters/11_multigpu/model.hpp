/// @file model.hpp
/// The all-reduce's cost model, host code only: the bytes each GPU sends and receives and the
/// steps each stage takes, the bus-bandwidth factor nccl-tests uses, the alpha-beta prediction
/// and the least-squares fit of alpha + bytes / beta to measured times.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stepwise::multigpu {

/// How a stage moves the data between the GPUs (a row's traits name it).
enum class Traffic {
  host_staged,     ///< every GPU to the host and back
  through_root,    ///< every GPU to GPU 0, which reduces and sends the sum back
  ring,            ///< reduce-scatter then all-gather around a ring of GPUs
  pipelined_ring,  ///< the ring, each chunk in slices that follow each other around it
  library,         ///< NCCL: its own choice (a ring or a tree); modelled as a ring
};

/// What one GPU moves in one all-reduce of @p bytes per GPU on @p gpus GPUs.
struct TrafficCount {
  double sent = 0.0;      ///< bytes the busiest GPU sends (to the host, for host_staged)
  double received = 0.0;  ///< bytes the busiest GPU receives
  int steps = 0;          ///< transfers that follow each other (each pays the latency alpha)
};

/// The traffic of @p traffic for @p bytes per GPU on @p gpus GPUs; @p slices is the pipelined
/// ring's slices per chunk (ignored by the others).
TrafficCount traffic_of(Traffic traffic, double bytes, int gpus, int slices = 1);

/// nccl-tests' bus-bandwidth factor of an all-reduce: 2 (G - 1) / G (0 for one GPU), the bytes
/// each GPU must send per byte of its buffer, whatever the algorithm. busbw = algbw x factor.
double allreduce_bus_factor(int gpus);

/// The alpha-beta time of @p count: steps x alpha + the larger of sent and received / beta.
/// @p alpha_s in seconds, @p beta_bytes_per_s in bytes per second.
double predicted_seconds(const TrafficCount& count, double alpha_s, double beta_bytes_per_s);

/// The least time in which @p gpus GPUs can scan @p n values of @p value_bytes bytes each, split
/// into equal contiguous parts (part g on GPU g), when a pass that only reads moves
/// @p read_bytes_per_s and a copy @p copy_bytes_per_s (bytes read and written) on each GPU. Every
/// output of GPU g > 0 includes the totals of the parts before it, so GPU g writes nothing final
/// before those parts have been read once; then it reads and writes its own part. GPU 0 reads its
/// part for the total and again to scan it (reading it once, its total would come only at the end
/// of its scan, and the others would wait that long). So, with p = n / G values a part, no
/// schedule beats p b / R + 2 p b / C, stage 2's sequence; on one GPU, n 2b / C. Values written
/// early and fixed later pay their 2b again after the wait; moving values between GPUs does not
/// help, since GPU 0's memory reads its part at R until the total is known and every other part
/// lies in its own GPU's memory. Caches are ignored.
/// @throws std::invalid_argument if @p gpus < 1 or a rate is not positive.
double scan_least_seconds(std::uint64_t n, int gpus, double value_bytes, double read_bytes_per_s,
                          double copy_bytes_per_s);

/// A fit t = alpha + x / beta.
struct AlphaBeta {
  double alpha_s = 0.0;           ///< the fixed cost, seconds
  double beta_bytes_per_s = 0.0;  ///< the asymptotic rate in bytes per GPU per second (0: no slope)
  int points = 0;
};

/// Least squares of t = alpha + x / beta over (@p bytes[i], @p seconds[i]), each point weighted
/// by 1 / t^2 so that the relative error counts (a sweep from 8 B to 1 GiB spans eight orders of
/// magnitude: plain least squares would leave alpha to the largest sizes' noise).
/// @throws std::invalid_argument with fewer than two distinct sizes or a non-positive time.
AlphaBeta fit_alpha_beta(const std::vector<double>& bytes, const std::vector<double>& seconds);

/// The bytes per GPU of the size sweep: 8 B, 32 B, ... x4 ... up to @p largest (included when
/// it is not on the ladder).
std::vector<std::uint64_t> sweep_bytes(std::uint64_t largest);

/// `ring`, `host-staged`, ...
std::string to_string(Traffic traffic);

}  // namespace stepwise::multigpu
