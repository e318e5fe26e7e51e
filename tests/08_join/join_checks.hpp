/// @file join_checks.hpp
/// The GPU checks of chapter 08's rows, which test_join_gpu.cpp runs on every row of the table
/// (variant rows included) and the grader of exercise 08-4 on the student's stage, for all four
/// joins: the talk's two worked examples; the edges where join bugs live (an empty side, one row,
/// no key in common, every key equal so that the output is |A| x |B|); inputs whose A + B sit at a
/// tile edge of any shape of the table; heavy duplication, where one object's rows cross many
/// tiles; spare rows of output that must stay untouched; every shape of a stage's --sweep; the
/// int32 limits (A + B = 2^31 - 1 rows), where memory allows. Outputs are poisoned first and seeds
/// are fresh; the count and every pair must equal the sequential sort-merge reference exactly, and
/// nothing may be written outside any buffer. Each check takes a list of rows, so that one input
/// serves them all.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpu_checks.hpp"
#include "host/check.hpp"
#include "host/data.hpp"
#include "host/device.hpp"
#include "host/host_memory.hpp"
#include "host/sizes.hpp"
#include "inputs.hpp"
#include "join.hpp"
#include "options.hpp"
#include "problems.hpp"

namespace stepwise::testing {

/// The four joins.
inline constexpr join::JoinKind kJoinKinds[] = {join::JoinKind::inner, join::JoinKind::left, join::JoinKind::right,
                                                join::JoinKind::outer};

/// Keys from letters, as the talk writes them: A = 1, B = 2, ...
inline std::vector<std::int32_t> letters(const std::string& keys) {
  std::vector<std::int32_t> out;
  for (char c : keys) out.push_back(c - 'A' + 1);
  return out;
}

/// Input items a row's tile covers (0 for rows without one).
inline std::size_t tile_of(const LaunchShape& shape) {
  return static_cast<std::size_t>(shape.threads) * static_cast<std::size_t>(shape.items);
}

/// The rows of the table, each stage followed by its variant rows.
inline std::vector<join::JoinStage> join_rows() { return with_variants(join::join_stages()); }

/// One checked run of @p stage at @p shape on @p problem (gpu_checks.hpp's check_run: the output
/// poisoned, the count and every pair checked, the guard zones checked), named by the stage and shape.
/// @return whether it passed
inline bool check_join_row(const join::JoinStage& stage, const LaunchShape& shape, join::JoinProblem& problem) {
  CAPTURE(stage.name);
  CAPTURE(stage.variant);
  CAPTURE(describe(shape));
  return check_run(problem, stage, shape, nullptr);
}

/// Each of @p rows at its default shape on @p problem, and at every shape of its sweep with
/// @p sweep (a variant row has none).
inline Tally check_join_rows(const std::vector<join::JoinStage>& rows, join::JoinProblem& problem, bool sweep) {
  Tally tally;
  for (const join::JoinStage& stage : rows) {
    tally.add(check_join_row(stage, stage.shape, problem));
    if (sweep)
      for (const LaunchShape& shape : stage.sweep) tally.add(check_join_row(stage, shape, problem));
  }
  return tally;
}

/// @p rows, every join kind, on @p input, with @p spare_rows of output beyond the join's.
inline Tally check_join_kinds(const std::vector<join::JoinStage>& rows, const join::JoinInput& input,
                              bool sweep = false, std::size_t spare_rows = 0) {
  Tally tally;
  for (join::JoinKind kind : kJoinKinds) {
    CAPTURE(to_string(kind));
    CAPTURE(input.a.size());
    CAPTURE(input.b.size());
    join::JoinProblem problem(input, kind, spare_rows);
    tally.add(check_join_rows(rows, problem, sweep));
  }
  return tally;
}

/// A drawn input of @p a_rows x @p b_rows at duplication @p dup, every kind.
inline Tally check_join_drawn(const std::vector<join::JoinStage>& rows, std::size_t a_rows, std::size_t b_rows,
                              double dup, bool sweep = false, std::size_t spare_rows = 0) {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(dup);
  CAPTURE(seed);
  return check_join_kinds(rows, join::make_input(a_rows, b_rows, dup, seed), sweep, spare_rows);
}

/// (|A|, |B|) pairs whose sum is @p tile - 1, @p tile and @p tile + 1, split unevenly, and one of
/// several tiles.
inline void add_tile_edges(std::set<std::pair<std::size_t, std::size_t>>& sizes, std::size_t tile) {
  if (tile == 0) return;
  for (std::size_t total : {tile - 1, tile, tile + 1, 3 * tile + 5}) {
    sizes.insert({total / 3, total - total / 3});
    sizes.insert({total - 1, 1});
  }
}

/// The talk's outer-join table and inner-join walk-through, every kind, at every shape of each
/// row's sweep.
inline Tally check_join_talk_examples(const std::vector<join::JoinStage>& rows) {
  Tally tally;
  tally.add(check_join_kinds(rows, join::JoinInput{letters("AABEEEEFFGHHJJMM"), letters("AABBBCCFGGHILL")}, true));
  tally.add(check_join_kinds(rows, join::JoinInput{letters("AABDFFFFG"), letters("AAABCEEFF")}, true));
  return tally;
}

/// The edges, every kind: an empty side, one row, no key in common, the int32 extremes, every key
/// equal.
inline Tally check_join_edges(const std::vector<join::JoinStage>& rows) {
  const std::vector<std::int32_t> none;
  Tally tally;
  tally.add(check_join_kinds(rows, join::JoinInput{none, none}));
  tally.add(check_join_kinds(rows, join::JoinInput{none, {-5, 3, 3, 9}}));
  tally.add(check_join_kinds(rows, join::JoinInput{{-5, 3, 3, 9}, none}));
  tally.add(check_join_kinds(rows, join::JoinInput{{7}, {7}}));
  tally.add(check_join_kinds(rows, join::JoinInput{{7}, {8}}));
  tally.add(check_join_kinds(
      rows, join::JoinInput{{-2147483647 - 1, 2147483647}, {-2147483647 - 1, -2147483647 - 1, 2147483647}}));
  std::vector<std::int32_t> evens, odds;
  for (std::int32_t i = 0; i < 100003; ++i) (i % 2 == 0 ? evens : odds).push_back(i);
  tally.add(check_join_kinds(rows, join::JoinInput{evens, odds}));
  tally.add(
      check_join_kinds(rows, join::JoinInput{std::vector<std::int32_t>(300, 7), std::vector<std::int32_t>(400, 7)}));
  return tally;
}

/// The (|A|, |B|) of the tile-edge check: small ones, and the tile edges of every shape of every
/// row of the table (default and sweep), whichever rows run there.
inline std::set<std::pair<std::size_t, std::size_t>> join_tile_edge_sizes() {
  std::set<std::pair<std::size_t, std::size_t>> sizes = {{1, 2}, {31, 33}, {1000, 1}};
  for (const join::JoinStage& stage : join_rows()) {
    add_tile_edges(sizes, tile_of(stage.shape));
    for (const LaunchShape& shape : stage.sweep) add_tile_edges(sizes, tile_of(shape));
  }
  return sizes;
}

/// @p rows at every size of join_tile_edge_sizes(), duplication 2, every kind, at every shape of
/// each row's sweep.
inline Tally check_join_tile_edges(const std::vector<join::JoinStage>& rows) {
  Tally tally;
  for (const auto& [a_rows, b_rows] : join_tile_edge_sizes())
    tally.add(check_join_drawn(rows, a_rows, b_rows, 2.0, true));
  return tally;
}

/// Duplication 1, 8, 64 and 5000, every kind: one key's rows cross many tiles.
inline Tally check_join_duplication(const std::vector<join::JoinStage>& rows) {
  Tally tally;
  tally.add(check_join_drawn(rows, (std::size_t{1} << 20) + 3, (std::size_t{1} << 20) + 3, 1.0));
  tally.add(check_join_drawn(rows, (std::size_t{1} << 20) + 3, (std::size_t{1} << 19) + 7, 8.0));
  tally.add(check_join_drawn(rows, (std::size_t{1} << 17) + 1, (std::size_t{1} << 18) + 5, 64.0));
  tally.add(check_join_drawn(rows, 5000, 5000, 5000.0));
  return tally;
}

/// Spare rows of output past the join's, which must stay poisoned, every kind.
inline Tally check_join_spare_rows(const std::vector<join::JoinStage>& rows) {
  Tally tally;
  tally.add(check_join_drawn(rows, 100003, 70001, 3.0, false, 1000));
  tally.add(check_join_drawn(rows, 0, 0, 1.0, false, 17));
  return tally;
}

/// The outer join of A + B = 2^31 - 1 rows (near 2^31 output rows) by @p rows at their default
/// shapes, where device and host memory allow: no run (an empty Tally) and a `stepwise-skip`
/// message otherwise.
inline Tally check_join_int32_limits(const std::vector<join::JoinStage>& rows) {
  join::Plan plan;
  plan.kind = join::JoinKind::outer;
  plan.a_rows = (std::size_t{1} << 30) - 1;
  plan.b_rows = std::size_t{1} << 30;
  REQUIRE(plan.a_rows + plan.b_rows == join::kMaxRows);
  const double expected = join::expected_rows(plan);
  const double spare = 2.0 * (std::size_t{1} << 30);
  if (static_cast<double>(free_device_bytes()) < join::device_bytes_needed(plan, expected) + spare ||
      static_cast<double>(available_host_bytes()) < join::host_bytes_needed(plan, expected) + spare) {
    MESSAGE("stepwise-skip: the outer join of 2^31 - 1 rows needs ",
            format_bytes(join::device_bytes_needed(plan, expected)), " of device memory and ",
            format_bytes(join::host_bytes_needed(plan, expected)), " of host memory");
    return {};
  }
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  join::JoinInput input = join::make_input(plan.a_rows, plan.b_rows, plan.duplication, seed);
  REQUIRE(join::join_row_count(input, plan.kind) <= join::kMaxRows);
  join::JoinProblem problem(std::move(input), plan.kind);
  return check_join_rows(rows, problem, false);
}

}  // namespace stepwise::testing
