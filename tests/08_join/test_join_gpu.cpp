// GPU tests of chapter 08: every row of the table, for all four joins, on the talk's two worked
// examples; on the edges where join bugs live (an empty side, one row, no key in common, every
// key equal so that the output is |A| x |B|); at inputs whose A + B sit at a tile edge of every
// row's shape; at heavy duplication, where one object's rows cross many tiles; with spare rows
// of output that must stay untouched; at every shape of every --sweep; and at the int32 limits
// (A + B = 2^31 - 1 rows), where memory allows. Outputs are poisoned
// first and seeds are fresh; the count and every pair must equal the sequential sort-merge
// reference exactly, and nothing may be written outside any buffer. A new stage is tested with
// no edit here, and so is a stage's variant row (stage.hpp's with_variants): every test but the
// 2^31 one runs the variant rows too, on every join kind.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "host/device.hpp"
#include "host/host_memory.hpp"
#include "host/sizes.hpp"
#include "inputs.hpp"
#include "join.hpp"
#include "options.hpp"
#include "problems.hpp"

using namespace stepwise;
using namespace stepwise::join;

namespace {

constexpr JoinKind kKinds[] = {JoinKind::inner, JoinKind::left, JoinKind::right, JoinKind::outer};

/// Keys from letters, as the talk writes them: A = 1, B = 2, ...
std::vector<std::int32_t> letters(const std::string& keys) {
  std::vector<std::int32_t> out;
  for (char c : keys) out.push_back(c - 'A' + 1);
  return out;
}

/// Input items a row's tile covers (0 for rows without one).
std::size_t tile_of(const LaunchShape& shape) {
  return static_cast<std::size_t>(shape.threads) * static_cast<std::size_t>(shape.items);
}

void check_row(const JoinStage& stage, const LaunchShape& shape, JoinProblem& problem) {
  CAPTURE(stage.name);
  CAPTURE(stage.variant);
  CAPTURE(describe(shape));
  testing::check_run(problem, stage, shape, nullptr);
}

/// The rows of the table, each stage followed by its variant rows.
std::vector<JoinStage> rows_with_variants() { return with_variants(join_stages()); }

/// Every row of the table at its default shape, variant rows included unless @p variants is
/// false (and at every sweep shape with @p sweep; a variant has none).
void check_rows(JoinProblem& problem, bool sweep, bool variants = true) {
  for (const JoinStage& stage : variants ? rows_with_variants() : join_stages()) {
    check_row(stage, stage.shape, problem);
    if (sweep)
      for (const LaunchShape& shape : stage.sweep) check_row(stage, shape, problem);
  }
}

/// Every row, every join kind, on @p input.
void check_kinds(const JoinInput& input, bool sweep = false, std::size_t spare_rows = 0) {
  for (JoinKind kind : kKinds) {
    CAPTURE(to_string(kind));
    CAPTURE(input.a.size());
    CAPTURE(input.b.size());
    JoinProblem problem(input, kind, spare_rows);
    check_rows(problem, sweep);
  }
}

/// A drawn input of @p a_rows x @p b_rows at duplication @p dup, every kind.
void check_drawn(std::size_t a_rows, std::size_t b_rows, double dup, bool sweep = false, std::size_t spare_rows = 0) {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(dup);
  CAPTURE(seed);
  check_kinds(make_input(a_rows, b_rows, dup, seed), sweep, spare_rows);
}

/// (|A|, |B|) pairs whose sum is @p tile - 1, @p tile and @p tile + 1, split unevenly, and one of
/// several tiles.
void add_tile_edges(std::set<std::pair<std::size_t, std::size_t>>& sizes, std::size_t tile) {
  if (tile == 0) return;
  for (std::size_t total : {tile - 1, tile, tile + 1, 3 * tile + 5}) {
    sizes.insert({total / 3, total - total / 3});
    sizes.insert({total - 1, 1});
  }
}

}  // namespace

TEST_CASE("every row reproduces the talk's outer-join table and inner-join walk-through, every kind") {
  check_kinds(JoinInput{letters("AABEEEEFFGHHJJMM"), letters("AABBBCCFGGHILL")}, true);
  check_kinds(JoinInput{letters("AABDFFFFG"), letters("AAABCEEFF")}, true);
}

TEST_CASE("every row on the edges: an empty side, one row, no key in common, every key equal") {
  const std::vector<std::int32_t> none;
  check_kinds(JoinInput{none, none});
  check_kinds(JoinInput{none, {-5, 3, 3, 9}});
  check_kinds(JoinInput{{-5, 3, 3, 9}, none});
  check_kinds(JoinInput{{7}, {7}});
  check_kinds(JoinInput{{7}, {8}});
  check_kinds(JoinInput{{-2147483647 - 1, 2147483647}, {-2147483647 - 1, -2147483647 - 1, 2147483647}});
  std::vector<std::int32_t> evens, odds;
  for (std::int32_t i = 0; i < 100003; ++i) (i % 2 == 0 ? evens : odds).push_back(i);
  check_kinds(JoinInput{evens, odds});
  check_kinds(JoinInput{std::vector<std::int32_t>(300, 7), std::vector<std::int32_t>(400, 7)});
}

TEST_CASE("every row is exact when A + B sits at a tile edge of any shape, and at every sweep shape") {
  std::set<std::pair<std::size_t, std::size_t>> sizes = {{1, 2}, {31, 33}, {1000, 1}};
  for (const JoinStage& stage : rows_with_variants()) {
    add_tile_edges(sizes, tile_of(stage.shape));
    for (const LaunchShape& shape : stage.sweep) add_tile_edges(sizes, tile_of(shape));
  }
  for (const auto& [a_rows, b_rows] : sizes) check_drawn(a_rows, b_rows, 2.0, true);
}

TEST_CASE("every row is exact at duplication 1, 8 and 64, where one key's rows cross many tiles") {
  check_drawn((std::size_t{1} << 20) + 3, (std::size_t{1} << 20) + 3, 1.0);
  check_drawn((std::size_t{1} << 20) + 3, (std::size_t{1} << 19) + 7, 8.0);
  check_drawn((std::size_t{1} << 17) + 1, (std::size_t{1} << 18) + 5, 64.0);
  check_drawn(5000, 5000, 5000.0);
}

TEST_CASE("a row leaves the output's spare rows alone and counts exactly") {
  check_drawn(100003, 70001, 3.0, false, 1000);
  check_drawn(0, 0, 1.0, false, 17);
}

TEST_CASE("a shape that is not compiled is refused before anything is launched") {
  JoinProblem problem(make_input(1000, 1000, 1.0, fresh_seed()), JoinKind::outer);
  for (const JoinStage& stage : rows_with_variants()) {
    if (stage.sweep.empty() && stage.variant.empty()) continue;  // a variant compiles its own shape only
    CAPTURE(stage.name);
    CAPTURE(stage.variant);
    LaunchShape bad = stage.shape;
    bad.threads = 100;
    CHECK_THROWS_AS(problem.launch(stage, bad, nullptr), std::invalid_argument);
  }
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
}

TEST_CASE("every row at the int32 limits: A + B = 2^31 - 1 rows, an outer join near 2^31 rows, where memory allows") {
  // The library row is thrust's searches, CUB's scan of int32 counts and thrust::upper_bound over
  // an int32 counting iterator: at the chapter's maxima every index and offset still fits int32,
  // and every row must be exact there.
  Plan plan;
  plan.kind = JoinKind::outer;
  plan.a_rows = (std::size_t{1} << 30) - 1;
  plan.b_rows = std::size_t{1} << 30;
  REQUIRE(plan.a_rows + plan.b_rows == kMaxRows);
  const double rows = expected_rows(plan);
  const double spare = 2.0 * (std::size_t{1} << 30);
  if (static_cast<double>(free_device_bytes()) < device_bytes_needed(plan, rows) + spare ||
      static_cast<double>(available_host_bytes()) < host_bytes_needed(plan, rows) + spare) {
    MESSAGE("stepwise-skip: the outer join of 2^31 - 1 rows needs ", format_bytes(device_bytes_needed(plan, rows)),
            " of device memory and ", format_bytes(host_bytes_needed(plan, rows)), " of host memory");
    return;
  }
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  JoinInput input = make_input(plan.a_rows, plan.b_rows, plan.duplication, seed);
  REQUIRE(join_row_count(input, plan.kind) <= kMaxRows);
  JoinProblem problem(std::move(input), plan.kind);
  check_rows(problem, false, false);  // the variant rows are the stage's, checked at every other size
}
