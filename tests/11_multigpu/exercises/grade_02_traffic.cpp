// The grader of exercise 11-2 (chapters/11_multigpu/exercises/README.md): the student's bytes sent and received
// per GPU and steps of each stage's traffic, bus-bandwidth factor and alpha-beta time against model.hpp's
// traffic_of, allreduce_bus_factor and predicted_seconds (what --analyze prints), for 1 to 8 GPUs, sizes from 4 B
// to 3 GB and 1 to 16 slices; then the factor in --analyze's own header. A planted wrong answer (the ring sending
// one chunk per step of the reduce-scatter only) must fail the same checks.
#include <doctest/doctest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "02_traffic.hpp"
#include "chapter.hpp"
#include "cli_checks.hpp"
#include "exercise_checks.hpp"
#include "model.hpp"

using namespace stepwise;
using namespace stepwise::multigpu;
using stepwise::testing::Differences;

namespace {

/// The most GPUs the chapter runs on (one host: sample_sort.hpp's kMaxGpus).
constexpr int kMostGpus = 8;

using TrafficAnswer = std::function<TrafficCount(Traffic, double, int, int)>;

constexpr Traffic kTraffics[] = {Traffic::host_staged, Traffic::through_root, Traffic::ring, Traffic::pipelined_ring,
                                 Traffic::library};

void grade_traffic(Differences& differences, const TrafficAnswer& answer) {
  for (Traffic traffic : kTraffics)
    for (int gpus = 1; gpus <= kMostGpus; ++gpus)
      for (double bytes : {4.0, 12.0, 1000.0, 1048576.0, 1073741824.0, 3000000004.0})
        for (int slices : {1, 2, 4, 16}) {
          const TrafficCount yours = answer(traffic, bytes, gpus, slices);
          const TrafficCount model = traffic_of(traffic, bytes, gpus, slices);
          const std::string where = to_string(traffic) + ", " + std::to_string(gpus) + " GPUs, " +
                                    std::to_string(static_cast<long long>(bytes)) + " B, " + std::to_string(slices) +
                                    " slices";
          differences.compare_near(where + ", bytes sent", yours.sent, model.sent);
          differences.compare_near(where + ", bytes received", yours.received, model.received);
          differences.compare(where + ", steps", yours.steps, model.steps);
        }
}

/// Planted: the ring's reduce-scatter alone, (G - 1) / G of a buffer in G - 1 steps.
TrafficCount reduce_scatter_only(Traffic traffic, double bytes, int gpus, int slices) {
  TrafficCount count = traffic_of(traffic, bytes, gpus, slices);
  if (gpus > 1 && (traffic == Traffic::ring || traffic == Traffic::library)) {
    count.sent = count.received = (gpus - 1.0) / gpus * bytes;
    count.steps = gpus - 1;
  }
  return count;
}

}  // namespace

TEST_CASE("exercise 11-2: your bytes and steps are traffic_of's for every stage, size and team") {
  Differences differences;
  grade_traffic(differences, exercises::predicted_traffic);
  differences.check();
}

TEST_CASE("exercise 11-2: your bus factor and alpha-beta times are the model's") {
  Differences differences;
  for (int gpus = 1; gpus <= kMostGpus; ++gpus)
    differences.compare_near(std::to_string(gpus) + " GPUs, busbw factor", exercises::predicted_bus_factor(gpus),
                             allreduce_bus_factor(gpus));
  for (Traffic traffic : kTraffics)
    for (int gpus : {1, 2, 3, 8})
      for (double bytes : {8.0, 65536.0, 1073741824.0})
        for (auto [alpha, beta] : {std::pair{10e-6, 100e9}, std::pair{2.5e-6, 370e9}, std::pair{1e-6, 0.0}}) {
          const TrafficCount count = traffic_of(traffic, bytes, gpus, 4);
          differences.compare_near(to_string(traffic) + ", " + std::to_string(gpus) + " GPUs, " +
                                       std::to_string(static_cast<long long>(bytes)) + " B, alpha " +
                                       std::to_string(alpha) + " s, beta " + std::to_string(beta) + " B/s, seconds",
                                   exercises::predicted_seconds_of(count, alpha, beta),
                                   predicted_seconds(count, alpha, beta));
        }
  differences.check();
}

TEST_CASE("exercise 11-2: your bus factor is the one --analyze prints") {
  for (int gpus = 1; gpus <= kMostGpus; ++gpus) {
    const testing::ParseOutcome analysis =
        testing::outcome_of(chapter(), {"--analyze", "--gpus", std::to_string(gpus), "--bytes", "1Gi"});
    REQUIRE(analysis.code == 0);
    char factor[64];
    std::snprintf(factor, sizeof factor, "busbw factor 2(G-1)/G = %.3f", exercises::predicted_bus_factor(gpus));
    CAPTURE(analysis.out);
    CHECK_MESSAGE(analysis.out.find(factor) != std::string::npos,
                  "--analyze --gpus " << gpus << " does not print `" << factor << "`");
  }
}

TEST_CASE("exercise 11-2: the grader fails a planted wrong answer (the reduce-scatter's bytes alone)") {
  Differences planted;
  grade_traffic(planted, reduce_scatter_only);
  CHECK(planted.count() > 0);
  Differences model;
  grade_traffic(model, traffic_of);
  CHECK(model.count() == 0);
}
