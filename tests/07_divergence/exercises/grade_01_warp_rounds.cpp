// The grader of exercise 07-1 (chapters/07_divergence/exercises/README.md): the student's cost of one warp
// with a branch per path and with one loop, against the chapter's (inputs.hpp's warp_cost, what --analyze
// sums into its warp-rounds column), warp by warp and summed over whole inputs of both workloads.
#include <doctest/doctest.h>

#include <array>
#include <string>
#include <vector>

#include "01_warp_rounds.hpp"
#include "divergence_inputs.hpp"
#include "exercise_checks.hpp"

using namespace stepwise::divergence;
using stepwise::testing::Differences;

namespace {

/// Your costs of the warps of @p paths (summed over them), against warp_cost's.
void compare(Differences& differences, const std::string& name, const std::vector<std::uint8_t>& paths,
             const std::vector<unsigned>& rounds, bool warp_by_warp) {
  const std::array<unsigned, kMaxPaths> model_rounds = grading::rounds_array(rounds);
  exercises::WarpRounds total;
  std::size_t divergent = 0;
  for (std::size_t first = 0; first < paths.size(); first += kWarp) {
    const std::vector<std::uint8_t> warp(
        paths.begin() + static_cast<std::ptrdiff_t>(first),
        paths.begin() + static_cast<std::ptrdiff_t>(std::min(paths.size(), first + kWarp)));
    const exercises::WarpRounds yours = exercises::warp_rounds(warp, rounds);
    total.branch_rounds += yours.branch_rounds;
    total.loop_rounds += yours.loop_rounds;
    total.lane_rounds += yours.lane_rounds;
    divergent += yours.divergent ? 1 : 0;
    if (!warp_by_warp) continue;
    const WarpCost model = warp_cost(warp, {}, model_rounds.data());
    const std::string where = name + ", warp " + std::to_string(first / kWarp);
    differences.compare(where + ", branch rounds (stage 1)", yours.branch_rounds,
                        static_cast<std::uint64_t>(model.branch_rounds));
    differences.compare(where + ", loop rounds (stage 2)", yours.loop_rounds,
                        static_cast<std::uint64_t>(model.loop_rounds));
    differences.compare(where + ", lane rounds", yours.lane_rounds, static_cast<std::uint64_t>(model.lane_rounds));
    differences.compare(where + ", divergent", yours.divergent, model.divergent_warps == 1);
  }
  const WarpCost model = warp_cost(paths, {}, model_rounds.data());
  differences.compare(name + ", all warps, branch rounds (stage 1)", total.branch_rounds,
                      static_cast<std::uint64_t>(model.branch_rounds));
  differences.compare(name + ", all warps, loop rounds (stage 2)", total.loop_rounds,
                      static_cast<std::uint64_t>(model.loop_rounds));
  differences.compare(name + ", all warps, lane rounds", total.lane_rounds,
                      static_cast<std::uint64_t>(model.lane_rounds));
  differences.compare(name + ", all warps, divergent warps", divergent, model.divergent_warps);
}

}  // namespace

TEST_CASE("exercise 07-1: the README's warps") {
  const std::vector<unsigned> synthetic = {64, 128, 256, 512, 0, 0, 0, 0};
  const std::vector<unsigned> mutation = {1, 512, 0, 0, 0, 0, 0, 0};
  std::vector<std::uint8_t> mixed, one_mutating(32, 0), uniform(32, 3);
  for (unsigned lane = 0; lane < 32; ++lane) mixed.push_back(static_cast<std::uint8_t>(lane % 4));
  one_mutating[17] = 1;
  Differences differences;
  compare(differences, "paths 0, 1, 2, 3 eight times each", mixed, synthetic, true);
  compare(differences, "one individual of 32 mutating", one_mutating, mutation, true);
  compare(differences, "every lane on path 3", uniform, synthetic, true);
  compare(differences, "a short warp of 3 lanes", {2, 0, 2}, synthetic, true);
  differences.check();
}

TEST_CASE("exercise 07-1: every warp of both workloads, and the sums --analyze prints") {
  Differences differences;
  for (const grading::PathInput& input : grading::path_inputs())
    compare(differences, input.name, input.paths, input.rounds, true);
  differences.check();
}
