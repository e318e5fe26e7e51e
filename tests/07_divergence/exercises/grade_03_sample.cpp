// The grader of exercise 07-3 (chapters/07_divergence/exercises/README.md): the student's replay of stage
// 8's sample, against the chapter's (inputs.hpp's sample_warps and Sample::remaps, what --analyze prints
// as "stage 8's sample"), on both workloads at shares of mixed warps around the break-even point.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "03_sample.hpp"
#include "divergence_inputs.hpp"
#include "exercise_checks.hpp"

using namespace stepwise::divergence;
using stepwise::testing::Differences;

namespace {

void compare(Differences& differences, const grading::PathInput& input) {
  const std::array<unsigned, kMaxPaths> rounds = grading::rounds_array(input.rounds);
  const Sample model = sample_warps(input.paths, rounds.data());
  const exercises::SampleAnswer yours = exercises::stage8_sample(input.paths, input.rounds);
  differences.compare(input.name + ", sampled warps", yours.warps, static_cast<std::size_t>(model.warps));
  differences.compare(input.name + ", longest lanes' rounds", yours.longest_rounds,
                      static_cast<std::uint64_t>(model.sum_max));
  // The model keeps each warp's mean (its lanes' rounds / 32); the sum of the lanes' rounds is 32 times theirs.
  differences.compare(input.name + ", lanes' rounds", yours.lane_rounds,
                      static_cast<std::uint64_t>(std::llround(32.0 * model.sum_mean)));
  differences.compare(input.name + ", remaps", yours.remaps, model.remaps());
}

}  // namespace

TEST_CASE("exercise 07-3: every input of both workloads") {
  Differences differences;
  for (const grading::PathInput& input : grading::path_inputs()) compare(differences, input);
  differences.check();
}

TEST_CASE("exercise 07-3: the synthetic workload from 0 to 30 % of mixed warps, around the switch") {
  Differences differences;
  int remapped = 0;
  for (int percent = 0; percent <= 30; ++percent) {
    const grading::PathInput input = grading::synthetic_paths(std::size_t{1} << 18, 4, percent / 100.0, {}, 11);
    compare(differences, input);
    const std::array<unsigned, kMaxPaths> rounds = grading::rounds_array(input.rounds);
    remapped += sample_warps(input.paths, rounds.data()).remaps() ? 1 : 0;
  }
  CHECK(remapped > 0);   // the range holds the switch: some shares remap
  CHECK(remapped < 31);  // and some do not
  differences.check();
}
