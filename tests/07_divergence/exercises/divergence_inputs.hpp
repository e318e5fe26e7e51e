// The inputs the chapter 07 exercise graders try: the paths of the chapter's own workloads (inputs.hpp),
// the synthetic one at shares of mixed warps from sorted to all mixed, with 2 to 8 paths and equal costs,
// and the mutation step at rates 0 to 100 %, at sizes that are not multiples of a warp.
#pragma once

#include <array>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "inputs.hpp"

namespace stepwise::divergence::grading {

/// One input: each element's path, each path's rounds (kMaxPaths entries), and what to call it.
struct PathInput {
  std::string name;
  std::vector<std::uint8_t> paths;
  std::vector<unsigned> rounds;
};

/// The synthetic workload's paths: @p n elements, @p paths paths of @p costs rounds (empty: the defaults),
/// @p divergence of the warps mixed.
inline PathInput synthetic_paths(std::size_t n, unsigned paths, double divergence, std::vector<unsigned> costs,
                                 std::uint64_t seed) {
  Plan plan;
  plan.paths = paths;
  plan.rounds = costs;
  plan.divergence = divergence;
  const Synthetic work = synthetic_work(plan);
  PathInput input;
  input.paths = paths_of(work, synthetic_input(n, paths, divergence, seed), 0);
  input.rounds.assign(work.rounds, work.rounds + kMaxPaths);
  std::ostringstream name;
  name << "synthetic, n = " << n << ", " << paths << " paths of";
  for (unsigned p = 0; p < paths; ++p) name << (p ? "/" : " ") << work.rounds[p];
  name << " rounds, " << divergence * 100 << " % of warps mixed, seed " << seed;
  input.name = name.str();
  return input;
}

/// The mutation workload's paths in generation 0: @p n individuals, mutating at @p rate.
inline PathInput mutation_paths(std::size_t n, double rate, std::uint64_t seed) {
  Plan plan;
  plan.workload = WorkloadKind::mutation;
  plan.paths = 2;
  plan.mutation_rate = rate;
  const Mutation work = mutation_work(plan, seed);
  PathInput input;
  input.paths = paths_of(work, std::vector<Genome>(n), 0);  // a mutation draw does not read the genome
  input.rounds.assign(work.rounds, work.rounds + kMaxPaths);
  std::ostringstream name;
  name << "mutation, n = " << n << ", rate " << rate * 100 << " %, seed " << seed;
  input.name = name.str();
  return input;
}

/// The inputs every chapter 07 grader runs.
inline std::vector<PathInput> path_inputs() {
  std::vector<PathInput> inputs;
  for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{33}})
    inputs.push_back(synthetic_paths(n, 4, 1.0, {}, 1));
  for (double divergence : {0.0, 0.05, 0.1, 0.15, 0.2, 0.5, 1.0})
    inputs.push_back(synthetic_paths(100003, 4, divergence, {}, 20261121));
  inputs.push_back(synthetic_paths(100003, 4, 1.0, {256, 256, 256, 256}, 2));
  inputs.push_back(synthetic_paths(100003, 8, 1.0, {}, 3));
  inputs.push_back(synthetic_paths(100003, 2, 0.3, {10, 1000}, 4));
  inputs.push_back(synthetic_paths(100003, 1, 1.0, {}, 5));
  inputs.push_back(synthetic_paths((std::size_t{1} << 20) + 17, 4, 0.15, {}, 6));
  for (double rate : {0.0, 0.01, 0.1, 1.0}) inputs.push_back(mutation_paths(100003, rate, 7));
  inputs.push_back(mutation_paths(std::size_t{1} << 20, 0.1, 20261121));
  return inputs;
}

/// @p rounds as the chapter's functions take them: kMaxPaths entries.
inline std::array<unsigned, kMaxPaths> rounds_array(const std::vector<unsigned>& rounds) {
  std::array<unsigned, kMaxPaths> array{};
  for (std::size_t p = 0; p < rounds.size() && p < kMaxPaths; ++p) array[p] = rounds[p];
  return array;
}

}  // namespace stepwise::divergence::grading
