// GPU tests of chapter 06: every row of both tables (predicate and flags), int32 and float32
// keys, with and without a payload, at the sizes where compaction bugs live (n = 1, a warp and a
// tile +- 1 of every row's shape, several tiles, 2^20 + 3) and the selectivities 0 %, 1 %,
// 50 %, 99 % and 100 %; inputs where one tile alone is all kept or all dropped; runs that cross
// tiles; every shape of every --sweep at its tile edges; and a run past 2^31 elements where
// memory allows. Outputs are poisoned first and seeds are fresh; the ordered rows must match the
// reference exactly, the unordered ones as a multiset, nothing may be written past the kept
// count or outside any buffer. A new stage is tested with no edit here, and so is a stage's variant
// row (stage.hpp's with_variants): every test but the 2^31 one runs the variant rows too.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "compaction.hpp"
#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "host/device.hpp"
#include "host/device_buffer.hpp"
#include "host/sizes.hpp"
#include "inputs.hpp"
#include "problems.hpp"

using namespace stepwise;
using namespace stepwise::compaction;

namespace {

const std::vector<double> kSelectivities = {0.0, 0.01, 0.5, 0.99, 1.0};

Plan plan_of(bool by_flags, bool payload, double selectivity = 0.5, const Pattern& pattern = {}) {
  Plan plan;
  plan.by_flags = by_flags;
  plan.payload = payload;
  plan.selectivity = selectivity;
  plan.pattern = pattern;
  return plan;
}

/// Elements a row's tile covers (0 for rows without one).
std::size_t tile_of(const LaunchShape& shape) {
  return static_cast<std::size_t>(shape.threads) * static_cast<std::size_t>(shape.items);
}

/// Sizes around @p tile: tile - 1, tile, tile + 1, 3 tile + 5.
void add_tile_edges(std::set<std::size_t>& sizes, std::size_t tile) {
  if (tile == 0) return;
  for (std::size_t n : {tile - 1, tile, tile + 1, 3 * tile + 5}) sizes.insert(n);
}

template <class K>
void check_row(const SelectStage<K>& stage, const LaunchShape& shape, SelectProblem<K>& problem) {
  CAPTURE(stage.name);
  CAPTURE(stage.variant);
  CAPTURE(describe(shape));
  testing::check_run(problem, stage, shape, nullptr);
}

/// The rows of @p form's table, each stage followed by its variant rows.
template <class K>
std::vector<SelectStage<K>> rows_of(Form form) {
  return with_variants(select_stages<K>(form));
}

/// The shapes a row is tested at with --sweep's: every shape of its sweep, or its one shape.
template <class K>
std::vector<LaunchShape> shapes_of(const SelectStage<K>& stage) {
  return stage.sweep.empty() ? std::vector<LaunchShape>{stage.shape} : stage.sweep;
}

/// The rows (variants too) of @p K's predicate table that read chapter option @p option (StageInfo::options).
template <class K>
std::vector<SelectStage<K>> rows_reading(const std::string& option) {
  std::vector<SelectStage<K>> rows;
  for (const SelectStage<K>& stage : rows_of<K>(Form::predicate))
    if (std::find(stage.options.begin(), stage.options.end(), option) != stage.options.end()) rows.push_back(stage);
  return rows;
}

/// Every row of @p plan's table, variant rows included, at its default shape (and every sweep
/// shape with @p sweep) on @p problem.
template <class K>
void check_rows(const Plan& plan, SelectProblem<K>& problem, bool sweep) {
  for (const SelectStage<K>& stage : rows_of<K>(plan.by_flags ? Form::flags : Form::predicate)) {
    check_row(stage, stage.shape, problem);
    if (sweep)
      for (const LaunchShape& shape : stage.sweep) check_row(stage, shape, problem);
  }
}

template <class K>
void rows_at(const std::vector<std::size_t>& sizes, const std::vector<double>& selectivities, const Pattern& pattern,
             bool sweep) {
  for (bool by_flags : {false, true})
    for (bool payload : {false, true})
      for (std::size_t n : sizes)
        for (double selectivity : selectivities) {
          const std::uint64_t seed = fresh_seed();
          CAPTURE(by_flags);
          CAPTURE(payload);
          CAPTURE(n);
          CAPTURE(selectivity);
          CAPTURE(to_string(pattern));
          CAPTURE(seed);
          const Plan plan = plan_of(by_flags, payload, selectivity, pattern);
          SelectProblem<K> problem(n, plan, seed);
          check_rows(plan, problem, sweep);
        }
}

/// The sizes every row runs at: the small edge cases and the tile edges of every row.
template <class K>
std::vector<std::size_t> edge_sizes() {
  std::set<std::size_t> sizes = {1, 2, 31, 32, 33, 1000, (std::size_t{1} << 20) + 3};
  for (const SelectStage<K>& stage : rows_of<K>(Form::predicate)) add_tile_edges(sizes, tile_of(stage.shape));
  return {sizes.begin(), sizes.end()};
}

/// Element @p i of @p input made kept or dropped (key sign, flag).
template <class K>
void set_kept(SelectInput<K>& input, std::size_t i, bool kept) {
  const K magnitude = static_cast<K>(1 + i % 1000);
  input.keys[i] = kept ? K(0) - magnitude : magnitude;
  input.flags[i] = kept ? static_cast<std::uint8_t>(1 + i % 255) : 0;
}

}  // namespace

TEST_CASE_TEMPLATE("every row keeps exactly the reference's elements at every edge size and selectivity", K,
                   std::int32_t, float) {
  rows_at<K>(edge_sizes<K>(), kSelectivities, Pattern{}, false);
}

TEST_CASE("every row is exact when runs of kept and dropped elements cross tiles") {
  for (std::uint64_t run : {std::uint64_t{7}, std::uint64_t{1000}, std::uint64_t{5000}}) {
    Pattern pattern;
    pattern.kind = Pattern::Kind::runs;
    pattern.run = run;
    rows_at<std::int32_t>({100003, (std::size_t{1} << 20) + 3}, {0.5, 0.99}, pattern, false);
  }
}

TEST_CASE("every row is exact when one tile alone is all kept, or all dropped") {
  constexpr std::size_t n = 5 * 4096 + 77;
  const std::vector<SelectStage<std::int32_t>> predicate_rows = rows_of<std::int32_t>(Form::predicate);
  for (std::size_t r = 0; r < predicate_rows.size(); ++r) {
    const SelectStage<std::int32_t>& stage = predicate_rows[r];
    const std::size_t tile = tile_of(stage.shape) == 0 ? 2048 : tile_of(stage.shape);
    for (bool lone_tile_kept : {true, false})
      for (bool by_flags : {false, true}) {
        CAPTURE(lone_tile_kept);
        CAPTURE(by_flags);
        const Plan plan = plan_of(by_flags, true, lone_tile_kept ? 0.0 : 1.0);
        SelectInput<std::int32_t> input = make_input<std::int32_t>(n, plan.selectivity, {}, true, fresh_seed());
        for (std::size_t i = 2 * tile; i < 3 * tile && i < n; ++i) set_kept(input, i, lone_tile_kept);
        SelectProblem<std::int32_t> problem(std::move(input), plan);
        const std::vector<SelectStage<std::int32_t>> rows =
            rows_of<std::int32_t>(by_flags ? Form::flags : Form::predicate);
        for (std::size_t i = 0; i < rows.size(); ++i)  // the row of this form, and the library
          if (i == r || rows[i].kind == RowKind::library) check_row(rows[i], rows[i].shape, problem);
      }
  }
}

TEST_CASE_TEMPLATE("every shape of every --sweep is exact at its tile edges", K, std::int32_t, float) {
  std::set<std::size_t> sizes = {100003};
  for (const SelectStage<K>& stage : select_stages<K>(Form::predicate))
    for (const LaunchShape& shape : stage.sweep) add_tile_edges(sizes, tile_of(shape));
  for (bool by_flags : {false, true})
    for (std::size_t n : sizes) {
      const std::uint64_t seed = fresh_seed();
      CAPTURE(n);
      CAPTURE(by_flags);
      CAPTURE(seed);
      const Plan plan = plan_of(by_flags, n % 2 == 1, 0.5);
      SelectProblem<K> problem(n, plan, seed);
      check_rows(plan, problem, true);
    }
}

TEST_CASE("the speculative row is exact when every guess is wrong, and when it draws its ticket first") {
  for (std::size_t n : {std::size_t{1}, std::size_t{4095}, std::size_t{100003}, (std::size_t{1} << 20) + 3})
    for (bool speculative_load : {true, false}) {
      const std::uint64_t seed = fresh_seed();
      CAPTURE(n);
      CAPTURE(speculative_load);
      CAPTURE(seed);
      Plan plan = plan_of(true, true, 0.5);
      plan.speculative_load = speculative_load;
      SelectProblem<std::int32_t> problem(n, plan, seed);
      problem.set_guess_shift(speculative_load ? 1 : 0);
      const std::vector<SelectStage<std::int32_t>> rows = rows_reading<std::int32_t>("--speculative-load");
      REQUIRE_FALSE(rows.empty());
      for (const SelectStage<std::int32_t>& stage : rows)
        for (const LaunchShape& shape : shapes_of(stage)) check_row(stage, shape, problem);
    }
}

TEST_CASE("the look-back rows are exact whether they poll at once or late") {
  for (unsigned first_poll_ns : {0u, 5000u}) {
    const std::uint64_t seed = fresh_seed();
    CAPTURE(first_poll_ns);
    CAPTURE(seed);
    Plan plan = plan_of(false, false, 0.5);
    plan.first_poll_ns = first_poll_ns;
    const std::size_t n = (std::size_t{1} << 22) + 17;
    SelectProblem<float> problem(n, plan, seed);
    const std::vector<SelectStage<float>> rows = rows_reading<float>("--first-poll-ns");
    REQUIRE_FALSE(rows.empty());
    for (const SelectStage<float>& stage : rows) check_row(stage, stage.shape, problem);
  }
}

TEST_CASE("every row passes 2^31 elements (64-bit indices and counts), where device memory allows") {
  const std::size_t n = (std::size_t{1} << 31) + 4099;
  const double bytes = static_cast<double>(n) * (4.0 + 4.0) + static_cast<double>(n) / 64.0;
  if (static_cast<double>(free_device_bytes()) < bytes + (std::size_t{2} << 30)) {
    MESSAGE("stepwise-skip: 2^31 int32 keys and their output need ", format_bytes(bytes), " of device memory");
    return;
  }
  for (double selectivity : {0.01, 0.99}) {
    const std::uint64_t seed = fresh_seed();
    CAPTURE(selectivity);
    CAPTURE(seed);
    const Plan plan = plan_of(false, false, selectivity);
    SelectProblem<std::int32_t> problem(n, plan, seed);
    for (const SelectStage<std::int32_t>& stage : select_stages<std::int32_t>(Form::predicate))
      if (selectivity < 0.5 || stage.traits.keeps_input_order)  // 2^31 atomics: minutes, no news
        check_row(stage, stage.shape, problem);
  }
}

TEST_CASE("a shape that is not compiled is refused before anything is launched") {
  const Plan plan = plan_of(false, false);
  SelectProblem<std::int32_t> problem(1000, plan, fresh_seed());
  for (const SelectStage<std::int32_t>& stage : rows_of<std::int32_t>(Form::predicate)) {
    if (stage.sweep.empty() && stage.variant.empty()) continue;  // a variant compiles its own shape only
    CAPTURE(stage.name);
    CAPTURE(stage.variant);
    LaunchShape bad = stage.shape;
    bad.threads = 100;
    CHECK_THROWS_AS(problem.launch(stage, bad, nullptr), std::invalid_argument);
  }
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
}
