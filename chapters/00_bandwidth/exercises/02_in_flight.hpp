/// @file 02_in_flight.hpp
/// Exercise 00-2 (README.md): Little's law, the bytes a copy must keep in flight to run at a
/// given bandwidth when each load waits a given latency.
#pragma once

#include "latency.hpp"

namespace stepwise::bandwidth::exercises {

/// Your function: what `chapter_00_bandwidth --latency` prints last, for a copy at @p memcpy_gbps
/// whose loads each wait @p ns_per_load, on @p sm_count SMs of kThreadsPerSm (2048) resident
/// threads: the read stream in GB/s, and the bytes of loads in flight on the GPU, per SM and per
/// thread (InFlight, latency.hpp).
InFlight predicted_in_flight(double memcpy_gbps, double ns_per_load, int sm_count);

}  // namespace stepwise::bandwidth::exercises
