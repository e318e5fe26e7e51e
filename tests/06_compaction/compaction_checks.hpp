/// @file compaction_checks.hpp
/// The GPU checks of chapter 06's rows, which test_compaction_gpu.cpp runs on every row of both
/// tables (variant rows included) and the grader of exercise 06-4 on the student's stage: int32 and
/// float32 keys, both forms (predicate and flags), with and without a payload, at the sizes where
/// compaction bugs live and the selectivities 0 %, 1 %, 50 %, 99 % and 100 %; runs that cross
/// tiles; one tile alone all kept or all dropped; every shape of every sweep at its tile edges; and
/// a run past 2^31 elements where memory allows. Outputs are poisoned first and seeds are fresh;
/// an ordered row must match the reference exactly, an unordered one as a multiset, and nothing
/// may be written past the kept count or outside any buffer. Each check takes the rows it runs
/// (SelectRows: one table per form), so that one input serves them all.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "compaction.hpp"
#include "gpu_checks.hpp"
#include "host/check.hpp"
#include "host/data.hpp"
#include "host/device.hpp"
#include "host/sizes.hpp"
#include "inputs.hpp"
#include "plan.hpp"
#include "problems.hpp"

namespace stepwise::testing {

/// The selectivities every row runs at: nothing kept, 1 %, half, 99 %, everything kept.
inline const std::vector<double>& compaction_selectivities() {
  static const std::vector<double> selectivities = {0.0, 0.01, 0.5, 0.99, 1.0};
  return selectivities;
}

/// The plan of one checked input: its form, whether it has a payload, what is kept and where.
inline compaction::Plan compaction_plan(bool by_flags, bool payload, double selectivity = 0.5,
                                        const compaction::Pattern& pattern = {}) {
  compaction::Plan plan;
  plan.by_flags = by_flags;
  plan.payload = payload;
  plan.selectivity = selectivity;
  plan.pattern = pattern;
  return plan;
}

/// Elements a row's tile covers (0 for rows without one).
inline std::size_t tile_of(const LaunchShape& shape) {
  return static_cast<std::size_t>(shape.threads) * static_cast<std::size_t>(shape.items);
}

/// Sizes around @p tile: tile - 1, tile, tile + 1, 3 tile + 5.
inline void add_tile_edges(std::set<std::size_t>& sizes, std::size_t tile) {
  if (tile == 0) return;
  for (std::size_t n : {tile - 1, tile, tile + 1, 3 * tile + 5}) sizes.insert(n);
}

/// The rows a check runs, one table per form: the chapter's two tables, or one stage in both.
template <class K>
struct SelectRows {
  std::vector<compaction::SelectStage<K>> predicate;
  std::vector<compaction::SelectStage<K>> flags;
  /// The table of @p form.
  const std::vector<compaction::SelectStage<K>>& of(compaction::Form form) const {
    return form == compaction::Form::flags ? flags : predicate;
  }
};

/// Every row of the chapter's two tables, each stage followed by its variant rows.
template <class K>
SelectRows<K> chapter_rows() {
  return {with_variants(compaction::select_stages<K>(compaction::Form::predicate)),
          with_variants(compaction::select_stages<K>(compaction::Form::flags))};
}

/// @p stage alone, in both forms (a row's launcher reads the form from its arguments).
template <class K>
SelectRows<K> one_stage(const compaction::SelectStage<K>& stage) {
  return {{stage}, {stage}};
}

/// One checked run of @p stage at @p shape on @p problem: the output poisoned, the row run and
/// waited for, its output checked against the reference (exactly, or as a multiset for an
/// unordered row) and the guard zones checked. @return whether both passed
template <class K>
bool check_row(const compaction::SelectStage<K>& stage, const LaunchShape& shape,
               compaction::SelectProblem<K>& problem) {
  CAPTURE(stage.name);
  CAPTURE(stage.variant);
  CAPTURE(describe(shape));
  return check_run(problem, stage, shape, nullptr);
}

/// Every row of @p plan's table in @p rows at its default shape (and every shape of its sweep with
/// @p sweep) on @p problem.
template <class K>
Tally check_rows(const SelectRows<K>& rows, const compaction::Plan& plan, compaction::SelectProblem<K>& problem,
                 bool sweep) {
  Tally tally;
  for (const compaction::SelectStage<K>& stage :
       rows.of(plan.by_flags ? compaction::Form::flags : compaction::Form::predicate)) {
    tally.add(check_row(stage, stage.shape, problem));
    if (sweep)
      for (const LaunchShape& shape : stage.sweep) tally.add(check_row(stage, shape, problem));
  }
  return tally;
}

/// @p rows on fresh inputs of both forms, with and without a payload, at every size of @p sizes and
/// every selectivity of @p selectivities, laid out as @p pattern says.
template <class K>
Tally check_rows_at(const SelectRows<K>& rows, const std::vector<std::size_t>& sizes,
                    const std::vector<double>& selectivities, const compaction::Pattern& pattern, bool sweep) {
  Tally tally;
  for (bool by_flags : {false, true})
    for (bool payload : {false, true})
      for (std::size_t n : sizes)
        for (double selectivity : selectivities) {
          const std::uint64_t seed = fresh_seed();
          CAPTURE(by_flags);
          CAPTURE(payload);
          CAPTURE(n);
          CAPTURE(selectivity);
          CAPTURE(compaction::to_string(pattern));
          CAPTURE(seed);
          const compaction::Plan plan = compaction_plan(by_flags, payload, selectivity, pattern);
          compaction::SelectProblem<K> problem(n, plan, seed);
          tally.add(check_rows(rows, plan, problem, sweep));
        }
  return tally;
}

/// The sizes every row runs at: the small edge cases, 2^20 + 3, and the tile edges of every
/// predicate row of @p rows.
template <class K>
std::vector<std::size_t> compaction_edge_sizes(const SelectRows<K>& rows) {
  std::set<std::size_t> sizes = {1, 2, 31, 32, 33, 1000, (std::size_t{1} << 20) + 3};
  for (const compaction::SelectStage<K>& stage : rows.predicate) add_tile_edges(sizes, tile_of(stage.shape));
  return {sizes.begin(), sizes.end()};
}

/// Every row of @p rows at its default shape, at every size of compaction_edge_sizes() and every
/// selectivity of compaction_selectivities(), both forms, with and without a payload.
template <class K>
Tally check_edge_sizes(const SelectRows<K>& rows) {
  return check_rows_at<K>(rows, compaction_edge_sizes(rows), compaction_selectivities(), compaction::Pattern{}, false);
}

/// The sizes whose runs cross tiles: 100003 and 2^20 + 3.
inline std::vector<std::size_t> runs_sizes() { return {100003, (std::size_t{1} << 20) + 3}; }

/// Every row of @p rows on int32 inputs whose kept and dropped elements come in runs of 7, 1000
/// and 5000 (50 % and 99 % kept, at runs_sizes()), which cross tiles.
inline Tally check_runs_across_tiles(const SelectRows<std::int32_t>& rows) {
  Tally tally;
  for (std::uint64_t run : {std::uint64_t{7}, std::uint64_t{1000}, std::uint64_t{5000}}) {
    compaction::Pattern pattern;
    pattern.kind = compaction::Pattern::Kind::runs;
    pattern.run = run;
    tally.add(check_rows_at<std::int32_t>(rows, runs_sizes(), {0.5, 0.99}, pattern, false));
  }
  return tally;
}

/// Element @p i of @p input made kept or dropped (key sign, flag).
template <class K>
void set_kept(compaction::SelectInput<K>& input, std::size_t i, bool kept) {
  const K magnitude = static_cast<K>(1 + i % 1000);
  input.keys[i] = kept ? K(0) - magnitude : magnitude;
  input.flags[i] = kept ? static_cast<std::uint8_t>(1 + i % 255) : 0;
}

/// The size of check_lone_tiles()'s inputs: five tiles of 4096 and a partial one.
inline constexpr std::size_t kLoneTileN = 5 * 4096 + 77;

/// Every predicate row r of @p rows on int32 inputs with a payload where its third tile (of its
/// default shape; 2048 elements for a row without tiles) alone is all kept, in an input where
/// nothing else is, or all dropped, in one where everything else is kept; in both forms, checking
/// row r of that form's table and the library rows.
inline Tally check_lone_tiles(const SelectRows<std::int32_t>& rows) {
  Tally tally;
  for (std::size_t r = 0; r < rows.predicate.size(); ++r) {
    const compaction::SelectStage<std::int32_t>& stage = rows.predicate[r];
    const std::size_t tile = tile_of(stage.shape) == 0 ? 2048 : tile_of(stage.shape);
    for (bool lone_tile_kept : {true, false})
      for (bool by_flags : {false, true}) {
        CAPTURE(lone_tile_kept);
        CAPTURE(by_flags);
        const compaction::Plan plan = compaction_plan(by_flags, true, lone_tile_kept ? 0.0 : 1.0);
        compaction::SelectInput<std::int32_t> input =
            compaction::make_input<std::int32_t>(kLoneTileN, plan.selectivity, {}, true, fresh_seed());
        for (std::size_t i = 2 * tile; i < 3 * tile && i < kLoneTileN; ++i) set_kept(input, i, lone_tile_kept);
        compaction::SelectProblem<std::int32_t> problem(std::move(input), plan);
        const std::vector<compaction::SelectStage<std::int32_t>>& form_rows =
            rows.of(by_flags ? compaction::Form::flags : compaction::Form::predicate);
        for (std::size_t i = 0; i < form_rows.size(); ++i)  // the row of this form, and the library
          if (i == r || form_rows[i].kind == RowKind::library)
            tally.add(check_row(form_rows[i], form_rows[i].shape, problem));
      }
  }
  return tally;
}

/// The sizes check_sweep_shapes() runs: 100003 and the tile edges of every shape of every
/// predicate row's sweep in @p rows.
template <class K>
std::vector<std::size_t> sweep_sizes(const SelectRows<K>& rows) {
  std::set<std::size_t> sizes = {100003};
  for (const compaction::SelectStage<K>& stage : rows.predicate)
    for (const LaunchShape& shape : stage.sweep) add_tile_edges(sizes, tile_of(shape));
  return {sizes.begin(), sizes.end()};
}

/// Every row of @p rows at its default shape and at every shape of its sweep, at every size of
/// sweep_sizes(), both forms, half kept, with a payload at the odd sizes.
template <class K>
Tally check_sweep_shapes(const SelectRows<K>& rows) {
  Tally tally;
  for (bool by_flags : {false, true})
    for (std::size_t n : sweep_sizes(rows)) {
      const std::uint64_t seed = fresh_seed();
      CAPTURE(n);
      CAPTURE(by_flags);
      CAPTURE(seed);
      const compaction::Plan plan = compaction_plan(by_flags, n % 2 == 1, 0.5);
      compaction::SelectProblem<K> problem(n, plan, seed);
      tally.add(check_rows(rows, plan, problem, true));
    }
  return tally;
}

/// The size of check_beyond_2_31()'s inputs: past 2^31, where a 32-bit index or count wraps.
inline constexpr std::size_t kBeyond2e31 = (std::size_t{1} << 31) + 4099;

/// Each stage of @p stages (predicate form, no payload) on 2^31 + 4099 int32 keys, 1 % and 99 %
/// kept; an unordered stage at 1 % only (2^31 atomics take minutes and show nothing new). Where
/// device memory is short, says so (stepwise-skip) and runs nothing: the Tally is empty.
inline Tally check_beyond_2_31(const std::vector<compaction::SelectStage<std::int32_t>>& stages) {
  Tally tally;
  const double bytes = static_cast<double>(kBeyond2e31) * (4.0 + 4.0) + static_cast<double>(kBeyond2e31) / 64.0;
  if (static_cast<double>(free_device_bytes()) < bytes + (std::size_t{2} << 30)) {
    MESSAGE("stepwise-skip: 2^31 int32 keys and their output need ", format_bytes(bytes), " of device memory");
    return tally;
  }
  for (double selectivity : {0.01, 0.99}) {
    const auto runs_here = [selectivity](const compaction::SelectStage<std::int32_t>& stage) {
      return selectivity < 0.5 || stage.traits.keeps_input_order;  // 2^31 atomics: minutes, no news
    };
    if (std::none_of(stages.begin(), stages.end(), runs_here)) continue;  // no input drawn for nothing
    const std::uint64_t seed = fresh_seed();
    CAPTURE(selectivity);
    CAPTURE(seed);
    const compaction::Plan plan = compaction_plan(false, false, selectivity);
    compaction::SelectProblem<std::int32_t> problem(kBeyond2e31, plan, seed);
    for (const compaction::SelectStage<std::int32_t>& stage : stages)
      if (runs_here(stage)) tally.add(check_row(stage, stage.shape, problem));
  }
  return tally;
}

}  // namespace stepwise::testing
