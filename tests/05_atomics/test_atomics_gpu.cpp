// GPU tests of chapter 05: every row of every histogram table (int-add with CUB, float-add,
// double-cas) at the sizes where warp-aggregation bugs live (n = 1, 31, 32, 33, a block +- 1, a
// partial last warp, 2^20 + 1), with 1 bin, bins that are not a power of two, bins that do not
// fit in shared memory, every key distribution (all-equal and all-distinct included), at the
// default shape and at every --sweep shape; the ticket table likewise (ticket_checks.hpp, which the
// grader of exercise 05-4 runs on the student's stage). Outputs are poisoned
// first, seeds are fresh, and nothing may be written outside any buffer. A new stage is tested
// with no edit here.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "atomics.hpp"
#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "host/device.hpp"
#include "host/device_buffer.hpp"
#include "host/sizes.hpp"
#include "inputs.hpp"
#include "library_limit.hpp"
#include "problems.hpp"
#include "ticket_checks.hpp"

using namespace stepwise;
using namespace stepwise::atomics;

namespace {

const std::vector<std::string> kDistributions = {"uniform", "runs:1",    "runs:3",   "runs:8",
                                                 "runs:32", "strided:1", "zipf:1.1", "all-equal"};

template <class Op>
void check_histogram_row(const HistogramStage<Op>& stage, const LaunchShape& shape, HistogramProblem<Op>& problem,
                         std::uint64_t seed) {
  CAPTURE(stage.name);
  CAPTURE(describe(shape));
  CAPTURE(problem.keys().size());
  CAPTURE(problem.bin_count());
  CAPTURE(std::string(Op::kName));
  CAPTURE(seed);
  testing::check_run(problem, stage, shape, nullptr);
}

template <class Op>
void histogram_rows_at(const std::vector<std::size_t>& sizes, const std::vector<int>& bin_counts,
                       const std::vector<std::string>& distributions, bool sweep) {
  for (std::size_t n : sizes)
    for (int bins : bin_counts)
      for (const std::string& distribution : distributions) {
        CAPTURE(distribution);
        const std::uint64_t seed = fresh_seed();
        const HistogramRows<Op> rows = histogram_rows<Op>(n, bins);
        HistogramProblem<Op> problem(n, bins, parse_distribution(distribution), seed, rows.workspace_bytes);
        for (const HistogramStage<Op>& stage : rows.stages) {
          check_histogram_row(stage, stage.shape, problem, seed);
          if (sweep)
            for (const LaunchShape& shape : stage.sweep) check_histogram_row(stage, shape, problem, seed);
        }
      }
}

template <class Op>
void histogram_edges() {
  histogram_rows_at<Op>(testing::atomics_edge_sizes(), {1, 7, 32, 1000}, kDistributions, false);
}

}  // namespace

TEST_CASE("histogram int-add: every row at the edge sizes, bins and distributions") { histogram_edges<IntAdd>(); }
TEST_CASE("histogram float-add: every row at the edge sizes, bins and distributions") { histogram_edges<FloatAdd>(); }
TEST_CASE("histogram double-cas: every row at the edge sizes, bins and distributions") { histogram_edges<DoubleCas>(); }

TEST_CASE("histogram: bins that do not fit in shared memory (stages 5-7 on the global bins)") {
  const int too_many = static_cast<int>(max_shared_bytes_per_block() / sizeof(float)) + 3;
  histogram_rows_at<IntAdd>({33, 100003}, {too_many, 65536 * 4 + 1}, {"uniform", "runs:8"}, false);
  histogram_rows_at<DoubleCas>({33, 100003}, {too_many}, {"uniform", "all-equal"}, false);
}

TEST_CASE("histogram: every --sweep shape of every row") {
  histogram_rows_at<IntAdd>({1, 33, 100003}, {1, 255}, {"runs:4", "uniform"}, true);
  histogram_rows_at<FloatAdd>({100003}, {255}, {"runs:4"}, true);
  histogram_rows_at<DoubleCas>({100003}, {255}, {"all-equal"}, true);
}

TEST_CASE("histogram: 2^24 + 1 values in 1 bin, exactly counted") {
  histogram_rows_at<IntAdd>({(std::size_t{1} << 24) + 1}, {1}, {"all-equal"}, false);
}

TEST_CASE("cub::DeviceHistogram: the grid CUB sizes its storage for is the model's, and the row stops at 2^31") {
  constexpr int kBins = 1 << 24;
  int device = 0, sms = 0;
  STEPWISE_CUDA_CHECK(cudaGetDevice(&device));
  STEPWISE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  // The cap: the blocks CUB launches for far more tiles than fit, occupancy x SMs.
  const std::uint64_t resident =
      cub_histogram_blocks_of_temp(cub_histogram_temp_bytes(std::size_t{1} << 28, kBins), kBins);
  CAPTURE(sms);
  CAPTURE(resident);
  CHECK(resident % static_cast<std::uint64_t>(sms) == 0);
  for (std::size_t n : {std::size_t{1}, std::size_t{6144}, std::size_t{6145}, std::size_t{786432}, std::size_t{786433},
                        std::size_t{1000000}, std::size_t{1} << 24}) {
    CAPTURE(n);
    CHECK(cub_histogram_blocks_of_temp(cub_histogram_temp_bytes(n, kBins), kBins) == cub_histogram_blocks(n, resident));
    CHECK(cub_histogram_blocks_of_temp(cub_histogram_temp_bytes(n, 257), 257) == cub_histogram_blocks(n, resident));
  }
  const std::uint64_t blocks_per_sm = resident / static_cast<std::uint64_t>(sms);
  for (std::size_t n : {std::size_t{786432}, std::size_t{786433}, std::size_t{1000000}}) {
    const HistogramRows<IntAdd> rows = histogram_rows<IntAdd>(n, kBins);
    const bool fits = cub_histogram_fits(n, kBins, sms, static_cast<int>(blocks_per_sm));
    CAPTURE(n);
    CHECK(rows.left_out.empty() == fits);
    CHECK((rows.stages.size() == histogram_stages<IntAdd>().size()) == fits);
  }
  // Just under the limit the row runs and counts exactly: 786432 keys into 2^24 bins, 128 blocks of
  // privatized bins (8 GiB of CUB storage) when the GPU has 128 resident blocks or more.
  const std::size_t n = 786432;
  const HistogramRows<IntAdd> rows = histogram_rows<IntAdd>(n, kBins);
  if (static_cast<double>(free_device_bytes()) < static_cast<double>(rows.workspace_bytes) + (std::size_t{2} << 30)) {
    MESSAGE("stepwise-skip: CUB's storage for 2^24 bins needs ",
            format_bytes(static_cast<double>(rows.workspace_bytes)), " of device memory");
    return;
  }
  REQUIRE(rows.left_out.empty());
  const std::uint64_t seed = fresh_seed();
  HistogramProblem<IntAdd> problem(n, kBins, parse_distribution("uniform"), seed, rows.workspace_bytes);
  check_histogram_row(rows.stages.back(), rows.stages.back().shape, problem, seed);
}

TEST_CASE("ticket: every row at the edge sizes and every --sweep shape") {
  const testing::Tally tally = testing::check_ticket_edges(ticket_stages());
  CHECK(tally.runs > 0);
}

TEST_CASE("launchers refuse bad shapes") {
  HistogramProblem<IntAdd> problem(100, 10, parse_distribution("uniform"), 1);
  for (const HistogramStage<IntAdd>& stage : histogram_stages<IntAdd>()) {
    if (stage.kind != RowKind::kernel) continue;
    CAPTURE(stage.name);
    CHECK_THROWS_AS(problem.launch(stage, {33, 0, 8}, nullptr), std::invalid_argument);
  }
}
