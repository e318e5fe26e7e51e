#include "build_exercise.hpp"

#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <iostream>
#include <vector>

#include "host/check.hpp"
#include "host/device.hpp"
#include "host/report.hpp"
#include "host/sizes.hpp"

namespace stepwise::testing {
namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

std::string side(const std::string& name, double ms, double bytes) {
  return name + " " + format_fixed(ms, 4) + " ms (" + format_fixed(bytes / (ms * 1e6), 1) + " GB/s)";
}

}  // namespace

std::string size_range(const std::vector<std::size_t>& sizes) {
  if (sizes.size() == 1) return "n = " + format_count(sizes.front());
  return std::to_string(sizes.size()) + " sizes, n = " + format_count(sizes.front()) + " to " +
         format_count(sizes.back());
}

void report_check(const std::string& exercise, const std::string& check, const Tally& tally) {
  std::cout << "exercise " << exercise << ", " << check << ": ";
  if (tally.runs == 0)
    std::cout << "no run: FAIL\n";
  else if (tally.failed == 0)
    std::cout << tally.runs << " runs: PASS\n";
  else
    std::cout << tally.failed << " of " << tally.runs << " runs failed: FAIL\n";
  std::cout << std::flush;
  CHECK_MESSAGE(tally.runs > 0, "exercise ", exercise, ", ", check, ": no run (a row without shapes?)");
}

void check_speed_gate(const std::string& exercise, const std::string& size, double bytes, const GatedStage& yours,
                      const GatedStage& solution, double gate) {
  int device = 0;
  STEPWISE_CUDA_CHECK(cudaGetDevice(&device));
  GpuTimer timer(describe_device(device).l2_bytes);
  const TimingOptions timing;  // the harness's defaults: 20 reps, 3 warm-up runs, L2 flushed by a read
  std::vector<double> yours_ms;
  std::vector<double> solution_ms;
  for (int round = 0; round < kGateRounds; ++round) {
    yours_ms.push_back(timer.time(yours.work, timing).median_ms);
    solution_ms.push_back(timer.time(solution.work, timing).median_ms);
  }
  const double mine = median_of(yours_ms);
  const double theirs = median_of(solution_ms);
  const double ratio = theirs / mine;  // the same bytes: GB/s yours / GB/s the solution's
  const bool passed = ratio >= gate;
  std::cout << "exercise " << exercise << ", speed at " << size << " (" << format_bytes(bytes) << " moved; median of "
            << kGateRounds << " rounds of " << timing.reps << " runs, L2 flushed): " << side(yours.name, mine, bytes)
            << ", " << side(solution.name, theirs, bytes) << ": " << format_fixed(100.0 * ratio, 1) << " % of "
            << solution.name << "'s GB/s, gate " << format_fixed(100.0 * gate, 0)
            << " %: " << (passed ? "PASS" : "FAIL") << "\n"
            << std::flush;
  CHECK_MESSAGE(passed, "exercise ", exercise, ": ", yours.name, " reaches ", format_fixed(100.0 * ratio, 1), " % of ",
                solution.name, "'s GB/s, below the gate of ", format_fixed(100.0 * gate, 0), " %");
}

}  // namespace stepwise::testing
