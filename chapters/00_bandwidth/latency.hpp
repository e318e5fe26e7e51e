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

/// Runs the chase over @p bytes (a buffer larger than L2 measures DRAM; a smaller one, L2).
ChaseResult pointer_chase(std::size_t bytes, std::size_t steps, unsigned long long seed);

/// The --latency report: the chase over 4 x L2 and over L2 / 4, and the bytes in flight
/// per SM that Little's law asks for to read at half of @p memcpy_gbps (a copy's read stream).
std::string latency_report(std::size_t l2_bytes, int sm_count, double memcpy_gbps, unsigned long long seed);

}  // namespace stepwise::bandwidth
