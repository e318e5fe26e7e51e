/// @file divergence_checks.hpp
/// The GPU checks of chapter 07's rows, which test_divergence_gpu.cpp runs on every row of both
/// tables and the grader of exercise 07-4 on the student's stage: the sizes where warp-level bugs
/// live (n = 1, a warp +- 1, a block +- 1, several blocks), sorted, half and fully mixed warps, one
/// path and 2 to 8 paths, and the mutation workload over 1 to 3 generations at rates 0, 10 % and
/// 100 %, at the default shape and, at 100,003 elements, every shape of the sweep. Outputs are
/// poisoned first and seeds are fresh; every row must equal the reference exactly, in the input's
/// order, and write nothing outside its buffers. Each check takes the rows it runs (DivergeRows: one
/// table per workload) and returns their Tally.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "divergence.hpp"
#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "inputs.hpp"
#include "problems.hpp"

namespace stepwise::testing {

/// The rows a check runs, one table per workload: the chapter's two tables, or one stage in both.
struct DivergeRows {
  std::vector<divergence::DivergeStage<divergence::Synthetic>> synthetic;
  std::vector<divergence::DivergeStage<divergence::Mutation>> mutation;
  /// The table of workload @p W.
  template <class W>
  const std::vector<divergence::DivergeStage<W>>& of() const {
    if constexpr (std::is_same_v<W, divergence::Synthetic>)
      return synthetic;
    else
      return mutation;
  }
};

/// Every row of the chapter's two tables.
inline DivergeRows divergence_chapter_rows() {
  return {divergence::diverge_stages<divergence::Synthetic>(), divergence::diverge_stages<divergence::Mutation>()};
}

/// The sizes where warp-level bugs live: n = 1, a warp +- 1, a block +- 1, several blocks.
inline const std::vector<std::size_t>& divergence_edge_sizes() {
  static const std::vector<std::size_t> sizes = {1, 2, 31, 32, 33, 255, 256, 257, 1000, 100003};
  return sizes;
}

/// The size at which every shape of the sweep runs.
inline constexpr std::size_t kDivergenceSweepN = 100003;

/// One checked run of @p stage at @p shape on @p problem. @return whether it passed
template <class W>
bool check_diverge_row(const divergence::DivergeStage<W>& stage, const LaunchShape& shape,
                       divergence::DivergeProblem<W>& problem) {
  CAPTURE(stage.name);
  CAPTURE(describe(shape));
  return check_run(problem, stage, shape, nullptr);
}

/// Every row of @p rows at its default shape, and with @p sweep at every shape of its sweep.
template <class W>
Tally check_diverge_rows(const std::vector<divergence::DivergeStage<W>>& rows, divergence::DivergeProblem<W>& problem,
                         bool sweep) {
  Tally tally;
  for (const divergence::DivergeStage<W>& stage : rows) {
    tally.add(check_diverge_row(stage, stage.shape, problem));
    if (sweep)
      for (const LaunchShape& shape : stage.sweep) tally.add(check_diverge_row(stage, shape, problem));
  }
  return tally;
}

/// The synthetic workload of @p paths paths, path p of 1 + 3p rounds, @p divergence of the warps
/// drawn mixed.
inline divergence::Plan synthetic_plan(unsigned paths, double divergence) {
  divergence::Plan plan;
  plan.paths = paths;
  for (unsigned p = 0; p < paths; ++p) plan.rounds.push_back(1 + 3 * p);
  plan.divergence = divergence;
  return plan;
}

/// The synthetic rows of @p rows (4 paths) at every size of divergence_edge_sizes(), sorted, half
/// and fully mixed; every shape of the sweep at kDivergenceSweepN.
inline Tally check_synthetic_edge_sizes(const DivergeRows& rows) {
  Tally tally;
  for (std::size_t n : divergence_edge_sizes())
    for (double divergence : {0.0, 0.5, 1.0}) {
      const std::uint64_t seed = fresh_seed();
      CAPTURE(n);
      CAPTURE(divergence);
      CAPTURE(seed);
      const divergence::Plan plan = synthetic_plan(4, divergence);
      divergence::DivergeProblem<divergence::Synthetic> problem(divergence::synthetic_work(plan),
                                                                divergence::synthetic_input(n, 4, divergence, seed), 1);
      tally.add(check_diverge_rows(rows.synthetic, problem, n == kDivergenceSweepN));
    }
  return tally;
}

/// The size of check_synthetic_paths()'s inputs.
inline constexpr std::size_t kDivergencePathsN = 4099;

/// The synthetic rows of @p rows with one path, and 2 to kMaxPaths paths, fully mixed.
inline Tally check_synthetic_paths(const DivergeRows& rows) {
  Tally tally;
  for (unsigned paths = 1; paths <= divergence::kMaxPaths; ++paths) {
    const std::uint64_t seed = fresh_seed();
    CAPTURE(paths);
    CAPTURE(seed);
    const divergence::Plan plan = synthetic_plan(paths, 1.0);
    divergence::DivergeProblem<divergence::Synthetic> problem(
        divergence::synthetic_work(plan), divergence::synthetic_input(kDivergencePathsN, paths, 1.0, seed), 1);
    tally.add(check_diverge_rows(rows.synthetic, problem, false));
  }
  return tally;
}

/// The mutation rows of @p rows at n = 1, 33 and kDivergenceSweepN, over 1 to 3 generations, at
/// rates 0, 10 % and 100 % (16 bits a mutation); every shape of the sweep at kDivergenceSweepN over
/// 3 generations.
inline Tally check_mutation_generations(const DivergeRows& rows) {
  Tally tally;
  for (std::size_t n : {std::size_t{1}, std::size_t{33}, kDivergenceSweepN})
    for (unsigned steps : {1u, 2u, 3u})
      for (double rate : {0.0, 0.1, 1.0}) {
        const std::uint64_t seed = fresh_seed();
        CAPTURE(n);
        CAPTURE(steps);
        CAPTURE(rate);
        CAPTURE(seed);
        divergence::Plan plan;
        plan.workload = divergence::WorkloadKind::mutation;
        plan.mutation_rate = rate;
        plan.mutation_rounds = 16;
        plan.steps = steps;
        divergence::DivergeProblem<divergence::Mutation> problem(divergence::mutation_work(plan, seed),
                                                                 divergence::random_population(n, seed), steps);
        tally.add(check_diverge_rows(rows.mutation, problem, n == kDivergenceSweepN && steps == 3));
      }
  return tally;
}

}  // namespace stepwise::testing
