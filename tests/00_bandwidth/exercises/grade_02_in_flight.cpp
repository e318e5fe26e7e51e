// The grader of exercise 00-2 (chapters/00_bandwidth/exercises/README.md): the student's Little's law,
// against the chapter's (latency.hpp's littles_law, the lines `--latency` prints last), on the
// lecture's run, on the lecture's own exercise, on the GTX 690 of the loops study, and at random.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "02_in_flight.hpp"
#include "exercise_checks.hpp"
#include "host/report.hpp"
#include "latency.hpp"

using namespace stepwise;
using bandwidth::InFlight;
using stepwise::testing::Differences;

namespace {

void grade(Differences& differences, const std::string& name, double memcpy_gbps, double ns_per_load, int sms) {
  const InFlight yours = bandwidth::exercises::predicted_in_flight(memcpy_gbps, ns_per_load, sms);
  const InFlight model = bandwidth::littles_law(memcpy_gbps, ns_per_load, sms);
  differences.compare_near(name + ", read GB/s", yours.read_gbps, model.read_gbps);
  differences.compare_near(name + ", bytes in flight", yours.bytes, model.bytes);
  differences.compare_near(name + ", bytes per SM", yours.bytes_per_sm, model.bytes_per_sm);
  differences.compare_near(name + ", bytes per thread", yours.bytes_per_thread, model.bytes_per_thread);
}

}  // namespace

TEST_CASE("exercise 00-2: the lecture's --latency run, 3052 GB/s and 353 ns on 132 SMs") {
  Differences differences;
  grade(differences, "H100, 3052 GB/s, 353 ns", 3052.0, 353.0, 132);
  differences.check();
  // What the lecture prints: 1526 GB/s, 0.5 MB, 4.1 KB per SM, 2.0 bytes per thread.
  const InFlight yours = bandwidth::exercises::predicted_in_flight(3052.0, 353.0, 132);
  CHECK(format_fixed(yours.read_gbps, 0) == "1526");
  CHECK(format_fixed(yours.bytes / 1e6, 1) == "0.5");
  CHECK(format_fixed(yours.bytes_per_sm / 1e3, 1) == "4.1");
  CHECK(format_fixed(yours.bytes_per_thread, 1) == "2.0");
}

TEST_CASE("exercise 00-2: the L2 latency, stage 5's latency under load, and a GK104") {
  Differences differences;
  grade(differences, "H100, L2 at 144 ns", 3052.0, 144.0, 132);
  grade(differences, "H100, stage 5 under load, 2193 ns at memcpy 3054 GB/s", 3054.0, 2193.0, 132);
  grade(differences, "GK104, 8 SMs, 192.3 GB/s, 500 ns", 192.3, 500.0, 8);
  grade(differences, "one SM", 100.0, 1000.0, 1);
  differences.check();
}

TEST_CASE("exercise 00-2: random GPUs") {
  std::mt19937_64 random(20261126);
  Differences differences;
  for (int trial = 0; trial < 500; ++trial) {
    const double gbps = std::uniform_real_distribution<double>(50.0, 10000.0)(random);
    const double ns = std::uniform_real_distribution<double>(50.0, 5000.0)(random);
    const int sms = std::uniform_int_distribution<int>(1, 200)(random);
    grade(differences,
          "trial " + std::to_string(trial) + ": " + std::to_string(gbps) + " GB/s, " + std::to_string(ns) + " ns, " +
              std::to_string(sms) + " SMs",
          gbps, ns, sms);
  }
  differences.check();
}
