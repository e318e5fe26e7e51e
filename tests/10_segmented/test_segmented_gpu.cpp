// GPU tests of chapter 10: every row of the segmented reduce, scan and rle tables (library rows included), every
// value type, every segment distribution, at the sizes where segmented bugs live (n = 1, 2, 31,
// 1000, 4097, 2^20 + 17, 2^24 + 5), segments built by hand with empty runs at both ends, and
// every shape of every --sweep. Outputs are poisoned first and seeds are fresh; int32 sums must
// match exactly, floats within the chapter's tolerance, and nothing may be written outside any
// buffer. A new stage is tested with no edit here.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "rle.hpp"
#include "segreduce_problem.hpp"
#include "segscan.hpp"

using namespace stepwise;
using namespace stepwise::segmented;
using namespace stepwise::testing;

namespace {

const char* const kDistributions[] = {"uniform:1", "uniform:32", "uniform:5000", "zipf:1.2", "zipf:2.5",
                                      "empty:0",   "empty:50",   "empty:99",     "huge",     "ones"};
const std::uint64_t kSmallSizes[] = {1, 2, 31, 1000, 4097, (std::uint64_t{1} << 20) + 17};
constexpr std::uint64_t kLargeSize = (std::uint64_t{1} << 24) + 5;

/// The table each problem's rows come from.
template <class T>
const std::vector<SegReduceStage<T>>& table_of(SegReduceProblem<T>&) {
  return segreduce_stages<T>();
}
template <class T>
const std::vector<SegScanStage<T>>& table_of(SegScanProblem<T>&) {
  return segscan_stages<T>();
}
template <class T>
const std::vector<RleStage<T>>& table_of(RleProblem<T>&) {
  return rle_stages<T>();
}

/// Every row of @p problem's table at its default shape (every sweep shape with @p sweep).
template <class Problem>
void check_rows(Problem& problem, std::uint64_t n, bool sweep) {
  for (const auto& stage : with_variants(table_of(problem))) {
    CAPTURE(stage.name);
    const std::vector<LaunchShape> shapes =
        sweep && !stage.sweep.empty() ? stage.sweep : std::vector<LaunchShape>{shape_at(stage, n)};
    for (const LaunchShape& shape : shapes) {
      CAPTURE(describe(shape));
      check_run(problem, stage, shape, nullptr);
    }
  }
}

template <template <class> class Problem, class T>
void check_distributions(const std::vector<std::uint64_t>& sizes) {
  for (std::uint64_t n : sizes)
    for (const char* text : kDistributions) {
      const std::uint64_t seed = fresh_seed();
      CAPTURE(n);
      CAPTURE(text);
      CAPTURE(seed);
      Plan plan;
      plan.segments = parse_segments(text);
      Problem<T> problem(n, plan, seed);
      check_rows(problem, n, false);
    }
}

}  // namespace

TEST_CASE_TEMPLATE("every row sums every segment distribution at the edge sizes", T, std::int32_t, float, double) {
  check_distributions<SegReduceProblem, T>({std::begin(kSmallSizes), std::end(kSmallSizes)});
}

TEST_CASE_TEMPLATE("every row sums every segment distribution above 2^24 items", T, std::int32_t, float, double) {
  check_distributions<SegReduceProblem, T>({kLargeSize});
}

TEST_CASE_TEMPLATE("every segmented scan row scans every distribution at the edge sizes", T, std::int32_t, float,
                   double) {
  check_distributions<SegScanProblem, T>({std::begin(kSmallSizes), std::end(kSmallSizes)});
}

TEST_CASE_TEMPLATE("every segmented scan row scans every distribution above 2^24 items", T, std::int32_t, float,
                   double) {
  check_distributions<SegScanProblem, T>({kLargeSize});
}

TEST_CASE_TEMPLATE("every rle row encodes the runs of every distribution at the edge sizes", T, std::int32_t, float,
                   double) {
  check_distributions<RleProblem, T>({std::begin(kSmallSizes), std::end(kSmallSizes)});
}

TEST_CASE_TEMPLATE("every rle row encodes the runs of every distribution above 2^24 keys", T, std::int32_t, float) {
  check_distributions<RleProblem, T>({kLargeSize});
}

TEST_CASE_TEMPLATE("empty segments at both ends and in runs give 0", T, std::int32_t, float, double) {
  for (std::uint64_t n : kSmallSizes) {
    const std::uint64_t seed = fresh_seed();
    CAPTURE(n);
    CAPTURE(seed);
    std::vector<std::uint64_t> offsets = {0, 0, 0};  // three empty segments first
    for (std::uint64_t at = 0; at < n;) {
      at += std::min<std::uint64_t>(n - at, 1 + seeded_hash(seed, 9, offsets.size()) % 700);
      offsets.push_back(at);
      if (offsets.size() % 5 == 0) offsets.insert(offsets.end(), 4, at);  // a run of four empty ones
    }
    offsets.insert(offsets.end(), 3, n);  // and three last
    SegReduceProblem<T> reduce(make_values<T>(n, seed), offsets);
    check_rows(reduce, n, false);
    SegScanProblem<T> scan(make_values<T>(n, seed), offsets);
    check_rows(scan, n, false);
  }
}

TEST_CASE_TEMPLATE("every shape of every --sweep sums exactly or within tolerance", T, std::int32_t, float) {
  for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{4097}, std::uint64_t{100003}})
    for (const char* text : {"uniform:32", "huge", "empty:50"}) {
      const std::uint64_t seed = fresh_seed();
      CAPTURE(n);
      CAPTURE(text);
      CAPTURE(seed);
      Plan plan;
      plan.segments = parse_segments(text);
      SegReduceProblem<T> reduce(n, plan, seed);
      check_rows(reduce, n, true);
      SegScanProblem<T> scan(n, plan, seed);
      check_rows(scan, n, true);
      RleProblem<T> rle(n, plan, seed);
      check_rows(rle, n, true);
    }
}

TEST_CASE_TEMPLATE("every --sweep shape of the scan and rle rows handles runs of one key and tiles without a head", T,
                   std::int32_t, float, double) {
  // ones: every key its own run (every length written from a staged head); uniform:5000 and huge: runs longer than
  // a tile, so tiles without a head between two heads (the last head found by look-back across them).
  for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{4097}, std::uint64_t{100003}})
    for (const char* text : {"ones", "uniform:5000", "huge", "empty:50"}) {
      const std::uint64_t seed = fresh_seed();
      CAPTURE(n);
      CAPTURE(text);
      CAPTURE(seed);
      Plan plan;
      plan.segments = parse_segments(text);
      SegScanProblem<T> scan(n, plan, seed);
      check_rows(scan, n, true);
      RleProblem<T> rle(n, plan, seed);
      check_rows(rle, n, true);
    }
}

TEST_CASE("a kernel row refuses a shape that is not compiled before anything is launched") {
  SegReduceProblem<float> problem(1000, Plan{}, fresh_seed());
  int refused = 0;
  for (const SegReduceStage<float>& stage : segreduce_stages<float>()) {
    if (stage.kind != RowKind::kernel) continue;
    CAPTURE(stage.name);
    LaunchShape bad = stage.shape;
    bad.threads = 100;
    CHECK_THROWS_AS(problem.launch(stage, bad, nullptr), std::invalid_argument);
    ++refused;
  }
  SegScanProblem<float> scan(1000, Plan{}, fresh_seed());
  for (const SegScanStage<float>& stage : segscan_stages<float>()) {
    if (stage.kind != RowKind::kernel) continue;
    CAPTURE(stage.name);
    LaunchShape bad = stage.shape;
    bad.threads = 100;
    CHECK_THROWS_AS(scan.launch(stage, bad, nullptr), std::invalid_argument);
    ++refused;
  }
  RleProblem<float> rle(1000, Plan{}, fresh_seed());
  for (const RleStage<float>& stage : rle_stages<float>()) {
    if (stage.kind != RowKind::kernel) continue;
    CAPTURE(stage.name);
    LaunchShape bad = stage.shape;
    bad.threads = 100;
    CHECK_THROWS_AS(rle.launch(stage, bad, nullptr), std::invalid_argument);
    ++refused;
  }
  CHECK(refused >= 8);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
}
