// The grader of exercise 00-1 (chapters/00_bandwidth/exercises/README.md): the student's row of a copy,
// against the chapter's own columns: the bytes the copy problem reports (copy_bytes_moved), the peak
// the device report computes (theoretical_peak_gbps), and derive_columns, which fills in GB/s,
// % memcpy and % peak of every chapter's table.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>

#include "01_row.hpp"
#include "bandwidth.hpp"
#include "exercise_checks.hpp"
#include "host/report.hpp"

using namespace stepwise;
using stepwise::testing::Differences;

namespace {

/// The H100 of the lecture: 2619 MHz, 5120-bit HBM3, memcpy 3054 GB/s in the table's run.
constexpr int kH100ClockKhz = 2619000;
constexpr int kH100BusBits = 5120;
constexpr double kH100MemcpyGbps = 3054.0;

/// One copy's row as the chapter's harness derives it.
ReportRow model_row(std::size_t n, double median_ms, double memcpy_gbps, int clock_khz, int bus_bits,
                    double& peak_gbps) {
  Report report;
  report.bytes_moved = bandwidth::copy_bytes_moved(n);
  report.memcpy_gbps = memcpy_gbps;
  report.device.peak_gbps = theoretical_peak_gbps(clock_khz, bus_bits);
  ReportRow row;
  row.time = TimingStats{median_ms, median_ms, median_ms, 1};
  report.rows.push_back(row);
  derive_columns(report);
  peak_gbps = report.device.peak_gbps;
  return report.rows.front();
}

void grade(Differences& differences, const std::string& name, std::size_t n, double median_ms, double memcpy_gbps,
           int clock_khz, int bus_bits) {
  const bandwidth::exercises::CopyRow yours =
      bandwidth::exercises::predicted_row(n, median_ms, memcpy_gbps, clock_khz, bus_bits);
  double peak_gbps = 0.0;
  const ReportRow model = model_row(n, median_ms, memcpy_gbps, clock_khz, bus_bits, peak_gbps);
  differences.compare_near(name + ", bytes moved", yours.bytes_moved, bandwidth::copy_bytes_moved(n));
  differences.compare_near(name + ", GB/s", yours.gbps, model.gbps);
  differences.compare_near(name + ", % memcpy", yours.pct_memcpy, model.pct_memcpy);
  differences.compare_near(name + ", peak GB/s", yours.peak_gbps, peak_gbps);
  differences.compare_near(name + ", % peak", yours.pct_peak, model.pct_peak);
}

}  // namespace

TEST_CASE("exercise 00-1: the lecture's table at 2^28 on the H100") {
  // The medians of the table's rows (README.md, Results): stages 1 to 7, then cudaMemcpy.
  const double medians_ms[] = {0.8857, 0.8680, 0.7068, 0.7513, 0.7314, 0.7452, 0.7062, 0.7086};
  Differences differences;
  for (int row = 0; row < 8; ++row) {
    const std::string name = row < 7 ? "stage " + std::to_string(row + 1) : std::string("cudaMemcpy");
    grade(differences, name + " at 2^28, " + format_fixed(medians_ms[row], 4) + " ms", std::size_t{1} << 28,
          medians_ms[row], kH100MemcpyGbps, kH100ClockKhz, kH100BusBits);
  }
  differences.check();
  // The header's peak, as the lecture prints it: 3352 GB/s.
  const bandwidth::exercises::CopyRow stage1 =
      bandwidth::exercises::predicted_row(std::size_t{1} << 28, 0.8857, kH100MemcpyGbps, kH100ClockKhz, kH100BusBits);
  CHECK_MESSAGE(format_fixed(stage1.peak_gbps, 0) == "3352", "the H100's peak prints as 3352 GB/s");
}

TEST_CASE("exercise 00-1: a GK104 of the GTX 690 (3004 MHz, 256 bits), odd sizes, and n = 1") {
  Differences differences;
  grade(differences, "GK104, 2^24 in 0.8 ms", std::size_t{1} << 24, 0.8, 150.0, 3004000, 256);
  grade(differences, "n = 1 in 0.002 ms", 1, 0.002, 3054.0, kH100ClockKhz, kH100BusBits);
  grade(differences, "n = 2^20 + 3 in 0.01 ms", (std::size_t{1} << 20) + 3, 0.01, 3054.0, kH100ClockKhz, kH100BusBits);
  grade(differences, "n = 100003 in 0.0071 ms", 100003, 0.0071, 3185.0, kH100ClockKhz, kH100BusBits);
  differences.check();
}

TEST_CASE("exercise 00-1: random rows") {
  std::mt19937_64 random(20261126);
  Differences differences;
  for (int trial = 0; trial < 500; ++trial) {
    const std::size_t n = std::uniform_int_distribution<std::size_t>(1, std::size_t{1} << 30)(random);
    const double ms = std::uniform_real_distribution<double>(0.001, 200.0)(random);
    const double memcpy_gbps = std::uniform_real_distribution<double>(100.0, 8000.0)(random);
    const int clock = std::uniform_int_distribution<int>(500000, 4000000)(random);
    const int bus = 64 * std::uniform_int_distribution<int>(1, 128)(random);
    grade(differences, "trial " + std::to_string(trial) + ": n = " + std::to_string(n), n, ms, memcpy_gbps, clock, bus);
  }
  differences.check();
}
