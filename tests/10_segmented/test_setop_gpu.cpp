// GPU tests of chapter 10's set operations: every row of the setop table, every op, every input
// class, at the sizes where merge-like bugs live (1, 2, 31, 1000, 4097, 2^20 + 17 and 2^24 + 5),
// and every shape of every --sweep; multisets with runs of duplicates longer than a tile. Outputs
// and their lengths are poisoned first and seeds are fresh; every row must match std::set_*
// exactly, its length included, leave the poison past its length untouched and write nothing
// outside any buffer. A new stage is tested with no edit here.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "setop.hpp"
#include "setop_problem.hpp"

using namespace stepwise;
using namespace stepwise::segmented;
using namespace stepwise::testing;

namespace {

const SetOp kOps[] = {SetOp::intersection, SetOp::union_, SetOp::difference, SetOp::symmetric_difference};

/// Every row of the table (variants included) on @p problem, at its shape or every sweep shape.
void check_rows(SetOpProblem& problem, bool sweep) {
  for (const SetOpStage& stage : with_variants(setop_stages())) {
    CAPTURE(stage.name);
    const std::vector<LaunchShape> shapes =
        sweep && !stage.sweep.empty() ? stage.sweep : std::vector<LaunchShape>{stage.shape};
    for (const LaunchShape& shape : shapes) {
      CAPTURE(describe(shape));
      check_run(problem, stage, shape, nullptr);
    }
  }
}

void check_sizes(const std::vector<std::uint64_t>& sizes, bool sweep = false) {
  for (std::uint64_t n : sizes)
    for (const auto& [input_name, input] : set_input_names()) {
      const std::uint64_t seed = fresh_seed();
      const SetInputs sets = make_sets(n, input, seed);
      for (SetOp op : kOps) {
        CAPTURE(n);
        CAPTURE(input_name);
        CAPTURE(to_string(op));
        CAPTURE(seed);
        SetOpProblem problem(sets, op);
        check_rows(problem, sweep);
      }
    }
}

}  // namespace

TEST_CASE("every row computes every op on every input class exactly at the edge sizes") {
  check_sizes({1, 2, 31, 1000, 4097, (std::uint64_t{1} << 20) + 17});
}

TEST_CASE("every row computes every op on every input class exactly above 2^24") {
  check_sizes({(std::uint64_t{1} << 24) + 5});
}

TEST_CASE("every sweep shape computes every op on every input class exactly") {
  check_sizes({1, 4097, (std::uint64_t{1} << 20) + 17}, true);
}

TEST_CASE("every sweep shape computes every op on runs of duplicates longer than a tile") {
  SetInputs sets;
  for (int key = 0; key < 40; ++key) {  // run lengths up to 5000 on each side, some keys on one side only
    sets.a.insert(sets.a.end(), static_cast<std::size_t>((key * 997) % 5001), key * 3);
    sets.b.insert(sets.b.end(), static_cast<std::size_t>((key * 613) % 4999), key * 3 + (key % 5 == 0 ? 1 : 0));
  }
  for (SetOp op : kOps) {
    CAPTURE(to_string(op));
    SetOpProblem problem(sets, op);
    check_rows(problem, true);
  }
}

TEST_CASE("every row handles both inputs empty") {
  for (SetOp op : kOps) {
    CAPTURE(to_string(op));
    SetOpProblem problem(SetInputs{}, op);
    check_rows(problem, false);
  }
}
