// The inputs the chapter 03 exercise graders try: the merge --analyze draws, random sorted keys with
// many and with few duplicates, all keys equal, disjoint and interleaved ranges, empty sides.
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace stepwise::merge::grading {

/// Two sorted inputs and what to call them in a message.
struct MergeInput {
  std::string name;
  std::vector<int> a;
  std::vector<int> b;
};

/// @p count keys drawn from [low, high], sorted.
inline std::vector<int> sorted_keys(std::mt19937& random, std::size_t count, int low, int high) {
  std::uniform_int_distribution<int> key(low, high);
  std::vector<int> keys(count);
  for (int& k : keys) k = key(random);
  std::sort(keys.begin(), keys.end());
  return keys;
}

/// The inputs every chapter 03 grader runs, the adversarial ones first.
inline std::vector<MergeInput> merge_inputs() {
  std::mt19937 random(20261121);
  std::vector<MergeInput> inputs = {
      {"the --analyze example", {1, 2, 2, 4, 5, 5, 7, 8, 9, 9}, {2, 3, 5, 5, 6, 9, 10, 11}},
      {"both empty", {}, {}},
      {"A empty", {}, {1, 2, 2, 3}},
      {"B empty", {4, 4, 5}, {}},
      {"one key each, equal", {7}, {7}},
      {"one key each, B first", {8}, {7}},
      {"all keys equal", std::vector<int>(9, 3), std::vector<int>(14, 3)},
      {"A before B", {1, 2, 3, 4, 5}, {6, 7, 8}},
      {"B before A", {10, 11, 12}, {1, 2, 3, 4, 5, 6, 7}},
      {"interleaved", {0, 2, 4, 6, 8, 10, 12}, {1, 3, 5, 7, 9, 11, 13, 15}},
      {"one in many", {50}, sorted_keys(random, 100, 0, 100)},
  };
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t na = std::uniform_int_distribution<std::size_t>(0, 70)(random);
    const std::size_t nb = std::uniform_int_distribution<std::size_t>(0, 70)(random);
    const int high = trial % 2 == 0 ? 8 : 1000;  // many duplicates, then few
    inputs.push_back({"random " + std::to_string(trial) + " (|A| = " + std::to_string(na) +
                          ", |B| = " + std::to_string(nb) + ", keys in [0, " + std::to_string(high) + "])",
                      sorted_keys(random, na, 0, high), sorted_keys(random, nb, 0, high)});
  }
  return inputs;
}

}  // namespace stepwise::merge::grading
