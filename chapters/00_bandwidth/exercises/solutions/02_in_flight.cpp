// Exercise 00-2, solved. A copy reads half of the bytes it moves, and only reads wait: the read
// stream is half of memcpy's GB/s. Little's law: bytes in flight = bytes per second x seconds per
// load. Per SM divides by the SMs, per thread by the SM's 2048 resident threads.
#include "02_in_flight.hpp"

namespace stepwise::bandwidth::exercises {

InFlight predicted_in_flight(double memcpy_gbps, double ns_per_load, int sm_count) {
  InFlight in_flight;
  in_flight.read_gbps = memcpy_gbps / 2.0;
  in_flight.bytes = (in_flight.read_gbps * 1e9) * (ns_per_load * 1e-9);
  in_flight.bytes_per_sm = in_flight.bytes / sm_count;
  in_flight.bytes_per_thread = in_flight.bytes_per_sm / kThreadsPerSm;
  return in_flight;
}

}  // namespace stepwise::bandwidth::exercises
