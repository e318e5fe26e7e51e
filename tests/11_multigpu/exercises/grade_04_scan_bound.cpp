// The grader of exercise 11-4 (chapters/11_multigpu/exercises/README.md): the student's least time of a scan over
// G GPUs against model.hpp's scan_least_seconds (what --analyze --problem scan prints), for 1 to 8 GPUs, n from 1
// to 2^32, 4- and 8-byte values and several rates; then the time in --analyze's own line. A planted wrong answer
// (no read for the totals: every GPU a copy of its part) must fail the same checks.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "04_scan_bound.hpp"
#include "chapter.hpp"
#include "cli_checks.hpp"
#include "exercise_checks.hpp"
#include "host/report.hpp"
#include "model.hpp"

using namespace stepwise;
using namespace stepwise::multigpu;
using stepwise::testing::Differences;

namespace {

constexpr int kMostGpus = 8;

using BoundAnswer = std::function<double(std::uint64_t, int, double, double, double)>;

void grade_bound(Differences& differences, const BoundAnswer& answer) {
  for (int gpus = 1; gpus <= kMostGpus; ++gpus)
    for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{1} << 20, std::uint64_t{1} << 30,
                            (std::uint64_t{1} << 32) - 1})
      for (double value_bytes : {4.0, 8.0})
        for (auto [read, copy] : {std::pair{3.08e12, 3.05e12}, std::pair{4.4e12, 4.1e12}, std::pair{1e12, 2e12}}) {
          const std::string where = std::to_string(gpus) + " GPUs, n " + std::to_string(n) + ", " +
                                    std::to_string(static_cast<int>(value_bytes)) + " B values, R " +
                                    std::to_string(read) + " B/s, C " + std::to_string(copy) + " B/s";
          differences.compare_near(where, answer(n, gpus, value_bytes, read, copy),
                                   scan_least_seconds(n, gpus, value_bytes, read, copy));
        }
}

/// Planted: the totals' read forgotten, every GPU a copy of its part alone.
double copies_only(std::uint64_t n, int gpus, double value_bytes, double, double copy_bytes_per_s) {
  return 2.0 * static_cast<double>(n) / gpus * value_bytes / copy_bytes_per_s;
}

}  // namespace

TEST_CASE("exercise 11-4: your least time is scan_least_seconds' for every team, size and rate") {
  Differences differences;
  grade_bound(differences, exercises::predicted_scan_least_seconds);
  differences.check();
}

TEST_CASE("exercise 11-4: your least time is the one --analyze --problem scan prints") {
  for (int gpus = 2; gpus <= kMostGpus; gpus *= 2) {
    const testing::ParseOutcome analysis = testing::outcome_of(
        chapter(), {"--analyze", "--problem", "scan", "--gpus", std::to_string(gpus), "--n", "2^30"});
    REQUIRE(analysis.code == 0);
    const std::string line =
        "= " +
        format_fixed(exercises::predicted_scan_least_seconds(std::uint64_t{1} << 30, gpus, 4.0, 3.08e12, 3.05e12) * 1e3,
                     4) +
        " ms";
    CAPTURE(analysis.out);
    CHECK_MESSAGE(analysis.out.find(line) != std::string::npos,
                  "--analyze --problem scan --gpus " << gpus << " does not print `" << line << "`");
  }
}

TEST_CASE("exercise 11-4: the grader fails a planted wrong answer (no read for the totals)") {
  Differences planted;
  grade_bound(planted, copies_only);
  CHECK(planted.count() > 0);
  Differences model;
  grade_bound(model, scan_least_seconds);
  CHECK(model.count() == 0);
}
