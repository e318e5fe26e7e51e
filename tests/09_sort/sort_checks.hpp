/// @file sort_checks.hpp
/// The GPU checks of chapter 09's rows, which test_sort_gpu.cpp runs on every row of both tables
/// (variant rows included) and the grader of exercise 09-4 on the student's radix stage 2: keys
/// only and pairs, at the sizes where sort bugs live (n = 1, 2, 3, a warp, 1000, a tile + 1, whole
/// tiles, 2^20 + 17 and one size above 2^24), on every input class (uniform, entropy:K, sorted,
/// reversed, equal, few:D); every shape of a stage's --sweep; 4-bit and 8-bit digits for the rows
/// that read --digit-bits. Outputs are poisoned first and seeds are fresh; every row must match the
/// stable reference exactly (keys as bit patterns, values in input order among equal keys), and
/// nothing may be written outside any buffer. Each check takes a list of rows, so that one input
/// serves them all, and returns the tally of its runs (a grader's report line counts them).
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "problems.hpp"
#include "sort.hpp"

namespace stepwise::testing {

/// The small sizes every input class runs at. 36864 is a whole number of tiles of 384 x 16,
/// 256 x 16 and 256 x 8 keys, 233472 of 384 x 19 and 256 x 19 (radix stage 5's default tiles)
/// too: the last tile is full.
inline constexpr std::size_t kSortSmallSizes[] = {1, 2, 3, 31, 1000, 4097, 36864, 233472, (std::size_t{1} << 20) + 17};
/// The size above 2^24 (several digit passes' worth of tiles, counts past 2^24).
inline constexpr std::size_t kSortLargeSize = (std::size_t{1} << 24) + 5;
/// The sizes every shape of a sweep runs at.
inline constexpr std::size_t kSortSweepSizes[] = {1, 4097, 100003};
/// The sizes each digit width runs at.
inline constexpr std::size_t kSortDigitBitsSizes[] = {1, 4097, (std::size_t{1} << 20) + 17};

/// The small sizes, as a list.
inline std::vector<std::size_t> sort_small_sizes() { return {std::begin(kSortSmallSizes), std::end(kSortSmallSizes)}; }

/// The input classes above 2^24: uniform, the lowest entropy, few distinct keys.
inline std::vector<sort::InputClass> sort_large_inputs() {
  using Kind = sort::InputClass::Kind;
  return {{Kind::uniform, 0}, {Kind::entropy, 5}, {Kind::few, 7}};
}

/// Each of @p rows on @p problem at its default shape for the problem's n (every shape of its
/// sweep with @p sweep), each run checked (gpu_checks.hpp's check_run).
template <class K>
Tally check_sort_rows(sort::SortProblem<K>& problem, const std::vector<sort::SortStage<K>>& rows, bool sweep) {
  Tally tally;
  for (const sort::SortStage<K>& stage : rows) {
    CAPTURE(stage.name);
    CAPTURE(stage.variant);
    const std::vector<LaunchShape> shapes =
        sweep && !stage.sweep.empty() ? stage.sweep : std::vector<LaunchShape>{shape_at(stage, problem.keys().size())};
    for (const LaunchShape& shape : shapes) {
      CAPTURE(describe(shape));
      tally.add(check_run(problem, stage, shape, nullptr));
    }
  }
  return tally;
}

/// @p rows on keys only and on pairs, at each of @p sizes, for each of @p inputs, each problem drawn
/// from a fresh seed.
template <class K>
Tally check_sort_inputs(const std::vector<sort::SortStage<K>>& rows, const std::vector<std::size_t>& sizes,
                        const std::vector<sort::InputClass>& inputs) {
  Tally tally;
  for (bool pairs : {false, true})
    for (std::size_t n : sizes)
      for (const sort::InputClass& input : inputs) {
        const std::uint64_t seed = fresh_seed();
        CAPTURE(pairs);
        CAPTURE(n);
        CAPTURE(to_string(input));
        CAPTURE(seed);
        sort::Plan plan;
        plan.input = input;
        plan.pairs = pairs;
        sort::SortProblem<K> problem(n, plan, seed);
        tally.add(check_sort_rows(problem, rows, false));
      }
  return tally;
}

/// Every shape of every sweep of @p rows, on pairs of few:300 keys (equal keys in every tile: the
/// stability check bites) at kSortSweepSizes.
template <class K>
Tally check_sort_sweep_shapes(const std::vector<sort::SortStage<K>>& rows) {
  Tally tally;
  for (std::size_t n : kSortSweepSizes) {
    const std::uint64_t seed = fresh_seed();
    CAPTURE(n);
    CAPTURE(seed);
    sort::Plan plan;
    plan.pairs = true;
    plan.input = {sort::InputClass::Kind::few, 300};
    sort::SortProblem<K> problem(n, plan, seed);
    tally.add(check_sort_rows(problem, rows, true));
  }
  return tally;
}

/// The rows of @p rows that read --digit-bits, with 4-bit and 8-bit digits, at every shape of their
/// sweep, on pairs of entropy:2 keys at kSortDigitBitsSizes.
template <class K>
Tally check_sort_digit_bits(const std::vector<sort::SortStage<K>>& rows) {
  Tally tally;
  for (int bits : {4, 8})
    for (std::size_t n : kSortDigitBitsSizes) {
      const std::uint64_t seed = fresh_seed();
      CAPTURE(bits);
      CAPTURE(n);
      CAPTURE(seed);
      sort::Plan plan;
      plan.pairs = true;
      plan.input = {sort::InputClass::Kind::entropy, 2};
      plan.digit_bits = bits;
      sort::SortProblem<K> problem(n, plan, seed);
      for (const sort::SortStage<K>& stage : rows) {
        if (!changed_by(stage, "--digit-bits")) continue;
        CAPTURE(stage.name);
        for (const LaunchShape& shape : stage.sweep) {
          CAPTURE(describe(shape));
          tally.add(check_run(problem, stage, shape, nullptr));
        }
      }
    }
  return tally;
}

}  // namespace stepwise::testing
