// The grader of exercise 00-3 (chapters/00_bandwidth/exercises/README.md): the student's latency under
// load, against the lecture's "Little's law read backwards" table (derived from Nsight Compute's
// counters), and against the chapter's model on any counters: the read stream is half of the bytes
// the copy moves (copy_bytes_moved), and Little's law forward (littles_law) at that stream and the
// implied latency gives back the bytes in flight.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>

#include "03_loaded_latency.hpp"
#include "bandwidth.hpp"
#include "exercise_checks.hpp"
#include "latency.hpp"

using namespace stepwise;
using bandwidth::exercises::KernelCounters;
using bandwidth::exercises::LoadedLatency;
using stepwise::testing::Differences;

namespace {

/// The model's relations between the four answers, for counters @p counters of a copy of @p n on @p sms SMs.
void check_relations(Differences& differences, const std::string& name, const KernelCounters& counters, std::size_t n,
                     int sms) {
  const LoadedLatency yours = bandwidth::exercises::implied_latency(counters, n, sms);
  differences.compare_near(name + ", resident threads per SM", yours.resident_threads_per_sm,
                           counters.warps_active_pct / 100.0 * bandwidth::kThreadsPerSm);
  differences.compare_near(name + ", bytes in flight", yours.bytes_in_flight,
                           yours.resident_threads_per_sm * sms * counters.bytes_per_thread);
  const double seconds = counters.kernel_us * 1e-6;
  differences.compare_near(name + ", read GB/s", yours.read_gbps, bandwidth::copy_bytes_moved(n) / 2.0 / seconds / 1e9);
  // Little's law forward, at the memcpy bandwidth whose read stream is yours, gives your bytes back.
  const bandwidth::InFlight forward = bandwidth::littles_law(2.0 * yours.read_gbps, yours.latency_ns, sms);
  differences.compare_near(name + ", bytes in flight by Little's law at your latency", forward.bytes,
                           yours.bytes_in_flight);
}

}  // namespace

TEST_CASE("exercise 00-3: the lecture's table, stages 1 to 7 at 2^26 on 132 SMs") {
  struct Row {
    KernelCounters counters;
    double resident, megabytes, read_gbps, latency_ns;  // as the lecture prints them
  };
  const Row rows[] = {
      {{4, 72.5, 225.8}, 1485, 0.78, 1189, 660},   {{4, 85.4, 218.0}, 1750, 0.92, 1231, 750},
      {{16, 84.1, 174.6}, 1722, 3.64, 1538, 2365}, {{8, 95.6, 186.5}, 1957, 2.07, 1439, 1436},
      {{16, 77.0, 176.6}, 1578, 3.33, 1520, 2193}, {{64, 24.4, 182.7}, 499, 4.22, 1469, 2870},
      {{16, 78.8, 173.3}, 1613, 3.41, 1549, 2200},
  };
  Differences differences;
  constexpr std::size_t n = std::size_t{1} << 26;
  for (int stage = 0; stage < 7; ++stage) {
    const Row& row = rows[stage];
    const std::string name = "stage " + std::to_string(stage + 1);
    const LoadedLatency yours = bandwidth::exercises::implied_latency(row.counters, n, 132);
    // The lecture rounds (and its percentages have one decimal): within 1 %.
    differences.compare_near(name + ", resident threads per SM", yours.resident_threads_per_sm, row.resident, 0.01);
    differences.compare_near(name + ", MB in flight", yours.bytes_in_flight / 1e6, row.megabytes, 0.01);
    differences.compare_near(name + ", read GB/s", yours.read_gbps, row.read_gbps, 0.01);
    differences.compare_near(name + ", latency ns", yours.latency_ns, row.latency_ns, 0.01);
    check_relations(differences, name, row.counters, n, 132);
  }
  differences.check();
}

TEST_CASE("exercise 00-3: random counters, sizes and GPUs") {
  std::mt19937_64 random(20261123);
  Differences differences;
  for (int trial = 0; trial < 500; ++trial) {
    const KernelCounters counters{static_cast<double>(4 << std::uniform_int_distribution<int>(0, 4)(random)),
                                  std::uniform_real_distribution<double>(1.0, 100.0)(random),
                                  std::uniform_real_distribution<double>(1.0, 5000.0)(random)};
    const std::size_t n = std::uniform_int_distribution<std::size_t>(1, std::size_t{1} << 30)(random);
    const int sms = std::uniform_int_distribution<int>(1, 200)(random);
    check_relations(differences, "trial " + std::to_string(trial), counters, n, sms);
  }
  differences.check();
}
