// The grader of exercise 05-2 (chapters/05_atomics/exercises/README.md): the student's schedule of the
// sub-tree reduction, against the chapter's replay of the rounds the kernels run (analysis.hpp's
// replay_subtree, over common/algorithm/warp_aggregate.hpp's SubtreeLane), and the sums it leaves.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "02_subtree.hpp"
#include "algorithm/warp_aggregate.hpp"
#include "analysis.hpp"
#include "exercise_checks.hpp"
#include "warp_inputs.hpp"

using namespace stepwise;
using atomics::exercises::SubtreeAdd;
using stepwise::testing::Differences;

namespace {

/// The adds of @p round whose sums are read, as the replay marks them.
std::vector<SubtreeAdd> used_adds(const atomics::SubtreeRound& round) {
  std::vector<SubtreeAdd> adds;
  for (const atomics::SubtreeAdd& add : round.adds)
    if (add.used) adds.push_back({add.lane, add.source});
  return adds;
}

/// Compares @p yours with the replay's rounds over @p keys.
void compare_schedule(Differences& differences, const std::string& name, const std::vector<atomics::Key>& keys,
                      const std::vector<std::vector<SubtreeAdd>>& yours) {
  const atomics::SubtreeReplay model = atomics::replay_subtree(keys, std::vector<std::int64_t>(keys.size(), 1));
  differences.compare(name + ", the number of rounds", yours.size(), model.rounds.size());
  for (std::size_t r = 0; r < yours.size() && r < model.rounds.size(); ++r) {
    const std::vector<SubtreeAdd> adds = used_adds(model.rounds[r]);
    const std::string where = name + ", round " + std::to_string(r + 1);
    differences.compare(where + ", the adds", yours[r].size(), adds.size());
    for (std::size_t i = 0; i < yours[r].size() && i < adds.size(); ++i) {
      differences.compare(where + ", add " + std::to_string(i + 1) + ": lane", yours[r][i].lane, adds[i].lane);
      differences.compare(where + ", lane " + std::to_string(adds[i].lane) + " adds lane", yours[r][i].source,
                          adds[i].source);
    }
  }
}

}  // namespace

TEST_CASE("exercise 05-2: the talk's 16-lane example, as --analyze prints it") {
  const std::vector<std::vector<SubtreeAdd>> yours =
      atomics::exercises::subtree_schedule(atomics::subtree_example_keys());
  Differences differences;
  // `chapter_05_atomics --analyze`, the sub-tree example: "round 1:  lane 0 += lane 4  lane 1 += lane 2 ...".
  const std::vector<std::vector<SubtreeAdd>> printed = {{{0, 4}, {1, 2}, {3, 6}, {5, 8}, {7, 10}, {9, 11}, {12, 13}},
                                                        {{0, 7}, {1, 5}, {3, 9}},
                                                        {{0, 12}, {1, 14}, {3, 15}}};
  differences.compare("the number of rounds", yours.size(), printed.size());
  for (std::size_t r = 0; r < yours.size() && r < printed.size(); ++r) {
    const std::string where = "round " + std::to_string(r + 1);
    differences.compare(where + ", the adds", yours[r].size(), printed[r].size());
    for (std::size_t i = 0; i < yours[r].size() && i < printed[r].size(); ++i) {
      differences.compare(where + ", add " + std::to_string(i + 1) + ": lane", yours[r][i].lane, printed[r][i].lane);
      differences.compare(where + ", lane " + std::to_string(printed[r][i].lane) + " adds lane", yours[r][i].source,
                          printed[r][i].source);
    }
  }
  compare_schedule(differences, "the 16-lane example, against the replay", atomics::subtree_example_keys(), yours);
  differences.check();
}

TEST_CASE("exercise 05-2: every warp width, keys from few and from many bins, against the replay") {
  Differences differences;
  for (const atomics::grading::KeysCase& warp : atomics::grading::warp_cases())
    compare_schedule(differences, warp.name, warp.keys, atomics::exercises::subtree_schedule(warp.keys));
  differences.check();
}

TEST_CASE("exercise 05-2: your schedule leaves each group's sum in its leader, in ceil(log2(largest group)) rounds") {
  Differences differences;
  for (const atomics::grading::KeysCase& warp : atomics::grading::warp_cases()) {
    const std::vector<std::vector<SubtreeAdd>> yours = atomics::exercises::subtree_schedule(warp.keys);
    const atomics::SubtreeReplay model =
        atomics::replay_subtree(warp.keys, std::vector<std::int64_t>(warp.keys.size(), 1));
    int largest = 0;
    for (std::uint32_t peers : model.peers) largest = std::max(largest, popcount32(peers));
    differences.compare(warp.name + ", rounds", yours.size(), static_cast<std::size_t>(subtree_rounds(largest)));
    // Values 1, 2, 4, ...: a leader's sum says which lanes reached it, once each.
    std::vector<std::int64_t> values(warp.keys.size());
    for (std::size_t lane = 0; lane < values.size(); ++lane) values[lane] = std::int64_t{1} << lane;
    for (const std::vector<SubtreeAdd>& round : yours) {
      const std::vector<std::int64_t> before = values;
      for (const SubtreeAdd& add : round) {
        const bool valid = add.lane >= 0 && add.source >= 0 && static_cast<std::size_t>(add.lane) < values.size() &&
                           static_cast<std::size_t>(add.source) < values.size();
        if (!valid) {
          differences.add(warp.name + ": an add names a lane outside the warp");
          continue;
        }
        values[static_cast<std::size_t>(add.lane)] += before[static_cast<std::size_t>(add.source)];
      }
    }
    for (std::size_t lane = 0; lane < warp.keys.size(); ++lane)
      if (model.ranks[lane] == 0)
        differences.compare(warp.name + ", leader lane " + std::to_string(lane) + "'s lanes (bit l: lane l)",
                            values[lane], static_cast<std::int64_t>(model.peers[lane]));
  }
  differences.check();
}
