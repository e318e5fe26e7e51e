// Exercise 00-2: Little's law (README.md, "00-2").
//
// The lesson: a copy does no arithmetic, so its speed is set by how many bytes each SM keeps in
// flight. Little's law says how many: bytes in flight = bandwidth x latency. Only the loads count
// (a store leaves the SM at once and nobody waits for it), so the bandwidth is the copy's read
// stream, not its whole traffic.
//
// Predict first: with memcpy at 3052 GB/s and a DRAM load taking 353 ns (the lecture's --latency
// run), the bytes in flight on 132 SMs, per SM and per thread at 2048 threads per SM. Is one
// 4-byte load per thread enough? Then write the function. Grade it with
// `ctest --test-dir build -L exercise-00`.
#include "02_in_flight.hpp"

#include "host/exercise.hpp"

namespace stepwise::bandwidth::exercises {

InFlight predicted_in_flight([[maybe_unused]] double memcpy_gbps, [[maybe_unused]] double ns_per_load,
                             [[maybe_unused]] int sm_count) {
  // TODO: the read stream, then bandwidth x latency, then spread it over the SMs and their threads.
  throw NotDoneYet("00-2", "predicted_in_flight", __FILE__);
}

}  // namespace stepwise::bandwidth::exercises
