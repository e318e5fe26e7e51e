/// @file ticket_checks.hpp
/// The GPU checks of chapter 05's ticket rows, which test_atomics_gpu.cpp runs on every row of the
/// ticket table and the grader of exercise 05-4 on the student's stage: random int32 values (about
/// half kept) with a fresh seed per size, the output and the counter poisoned first, the counter
/// and every kept value checked (each exactly once, nothing past the count written), nothing
/// written outside any device buffer; at the edge sizes, at the default shape and every --sweep
/// shape. Each check takes a list of stages, so that one input serves them all.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "atomics.hpp"
#include "gpu_checks.hpp"
#include "host/check.hpp"
#include "host/data.hpp"
#include "problems.hpp"

namespace stepwise::testing {

/// The sizes where warp-aggregation bugs live: one value, a partial warp, a warp either side, a
/// block of 256 either side, a partial last warp (1000, 4097) and 2^20 + 1. The histogram tables
/// run at these sizes too.
inline const std::vector<std::size_t>& atomics_edge_sizes() {
  static const std::vector<std::size_t> sizes = {
      1, 2, 31, 32, 33, 255, 256, 257, 1000, 4097, (std::size_t{1} << 20) + 1};
  return sizes;
}

/// One checked run of @p stage at @p shape on @p problem: poisons the output and the counter,
/// runs, waits, checks the counter and the kept values, and the guard zones.
/// @return whether the output and the guard zones passed
inline bool check_ticket_run(atomics::TicketProblem& problem, const atomics::TicketStage& stage,
                             const LaunchShape& shape) {
  return check_run(problem, stage, shape, nullptr);
}

/// Every stage of @p stages at every shape of its sweep and at its default shape, at every size of
/// atomics_edge_sizes(), one fresh input per size.
inline Tally check_ticket_edges(const std::vector<atomics::TicketStage>& stages) {
  Tally tally;
  for (std::size_t n : atomics_edge_sizes()) {
    const std::uint64_t seed = fresh_seed();
    atomics::TicketProblem problem(n, seed);
    for (const atomics::TicketStage& stage : stages) {
      std::vector<LaunchShape> shapes = stage.sweep;
      shapes.push_back(stage.shape);
      for (const LaunchShape& shape : shapes) {
        CAPTURE(stage.name);
        CAPTURE(describe(shape));
        CAPTURE(n);
        CAPTURE(seed);
        tally.add(check_ticket_run(problem, stage, shape));
      }
    }
  }
  return tally;
}

}  // namespace stepwise::testing
