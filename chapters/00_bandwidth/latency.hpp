/// @file latency.hpp
/// --latency: how long one load waits for DRAM, measured with a pointer chase, and what
/// Little's law then asks of a copy: bytes in flight = bandwidth x latency.
#pragma once

#include <cstddef>
#include <string>

namespace stepwise::bandwidth {

/// One pointer chase: @p steps dependent loads by a single thread over @p bytes of memory,
/// each load reading the next 128-byte line of a random cycle through the buffer.
struct ChaseResult {
  std::size_t bytes = 0;
  std::size_t steps = 0;
  double ns_per_load = 0.0;
};

/// Runs the chase over @p bytes: a warm-up walk of @p steps loads from the first line, then the
/// timed walk of @p steps loads from where the warm-up ended. A buffer much larger than L2 (with
/// more than 2 x @p steps lines, so the timed walk meets no line the warm-up loaded) measures
/// DRAM; one a few times L2 still hits L2 on part of its loads; one smaller than L2, L2.
ChaseResult pointer_chase(std::size_t bytes, std::size_t steps, unsigned long long seed);

/// The free device memory now (cudaMemGetInfo).
std::size_t free_device_bytes();

/// The buffer of the DRAM chase: 2 GiB or 40 x L2, whichever is larger, but at most half of
/// @p free_bytes (a smaller GPU gets a smaller buffer, which the report prints).
std::size_t dram_chase_bytes(std::size_t l2_bytes, std::size_t free_bytes);

/// The resident threads of one SM that `--latency` spreads the bytes in flight over (sm_90's maximum).
inline constexpr int kThreadsPerSm = 2048;

/// What Little's law asks of a copy: bytes in flight = bandwidth x latency, for the read stream only.
struct InFlight {
  double read_gbps = 0.0;         ///< the copy's read stream: half of its memcpy bandwidth
  double bytes = 0.0;             ///< the loads that must be in flight on the whole GPU
  double bytes_per_sm = 0.0;      ///< the same per SM
  double bytes_per_thread = 0.0;  ///< per SM, over kThreadsPerSm resident threads
};

/// Little's law for a copy at @p memcpy_gbps whose loads wait @p ns_per_load each, on @p sm_count
/// SMs. A copy reads and writes the same bytes, and only the reads wait for DRAM (a store leaves
/// the SM at once), so the rate is half of @p memcpy_gbps. What `--latency` prints last.
InFlight littles_law(double memcpy_gbps, double ns_per_load, int sm_count);

/// The --latency report: the chase over L2 / 4, 4 x L2 and dram_chase_bytes(), and the bytes in
/// flight per SM that Little's law asks for to read at half of @p memcpy_gbps (a copy's read
/// stream), from the DRAM chase.
std::string latency_report(std::size_t l2_bytes, int sm_count, double memcpy_gbps, unsigned long long seed);

}  // namespace stepwise::bandwidth
