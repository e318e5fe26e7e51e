// Exercise 00-3: Little's law read backwards (README.md, "00-3").
//
// The lesson: the pointer chase measures a memory system with nothing else to do. Under a full
// copy, requests queue, and the latency each load sees grows with the bytes in flight: read the
// law backwards, latency = bytes in flight / bandwidth, from what the profiler counted, and the
// 353 ns of the chase become microseconds once DRAM runs near its limit.
//
// Predict first: stage 1 (4 bytes per thread, 72.5 % of warps active, 225.8 us at 2^26) and stage 6
// (64 bytes, 24.4 %, 182.7 us): the resident threads per SM, the MB in flight on 132 SMs, the read
// GB/s and the latency each implies. Which stage's loads wait longer, and why is it not faster?
// Then write the function. Grade it with `ctest --test-dir build -L exercise-00`.
#include "03_loaded_latency.hpp"

#include "host/exercise.hpp"

namespace stepwise::bandwidth::exercises {

LoadedLatency implied_latency([[maybe_unused]] const KernelCounters& counters, [[maybe_unused]] std::size_t n,
                              [[maybe_unused]] int sm_count) {
  // TODO: resident threads, then bytes in flight, then the read stream, then latency = in flight / rate.
  throw NotDoneYet("00-3", "implied_latency", __FILE__);
}

}  // namespace stepwise::bandwidth::exercises
