// The keys the chapter 05 exercise graders try: the talk's examples, one warp of every width with
// keys from few and from many bins, and key arrays of the chapter's own distributions (inputs.hpp).
#pragma once

#include <random>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "ops.hpp"

namespace stepwise::atomics::grading {

/// Keys and what to call them in a message.
struct KeysCase {
  std::string name;
  std::vector<Key> keys;
};

/// One warp's keys (1 to 32 lanes): the talk's examples and the edges first, then every width
/// with keys from 2, 5 and 1000 bins, from a fixed seed.
inline std::vector<KeysCase> warp_cases() {
  std::vector<KeysCase> cases = {
      {"the talk's 8 lanes", {2, 3, 3, 1, 2, 3, 1, 2}},
      {"the talk's 16 lanes", {1, 2, 2, 3, 1, 2, 3, 1, 2, 3, 1, 3, 1, 1, 2, 3}},
      {"one lane", {7}},
      {"32 equal keys", std::vector<Key>(32, 5)},
      {"31 equal keys", std::vector<Key>(31, 0)},
      {"two lanes, different keys", {1, 0}},
  };
  std::vector<Key> distinct(32);
  for (int lane = 0; lane < 32; ++lane) distinct[static_cast<std::size_t>(lane)] = 31 - lane;
  cases.push_back({"32 distinct keys", distinct});
  std::vector<Key> halves(32);
  for (int lane = 0; lane < 32; ++lane) halves[static_cast<std::size_t>(lane)] = lane % 2;
  cases.push_back({"even and odd lanes", halves});
  std::vector<Key> runs(32);
  for (int lane = 0; lane < 32; ++lane) runs[static_cast<std::size_t>(lane)] = lane / 8;
  cases.push_back({"runs of 8", runs});
  std::mt19937 random(20261127);
  for (int bins : {2, 5, 1000})
    for (int lanes = 1; lanes <= 32; ++lanes) {
      std::uniform_int_distribution<Key> key(0, bins - 1);
      std::vector<Key> keys(static_cast<std::size_t>(lanes));
      for (Key& k : keys) k = key(random);
      cases.push_back({std::to_string(lanes) + " lanes, keys from " + std::to_string(bins) + " bins", keys});
    }
  return cases;
}

/// Key arrays of every length class (empty, below and above a tile, a thread's 8 and a warp's
/// 256 keys) drawn with the chapter's make_keys, and a few written out.
inline std::vector<KeysCase> key_arrays() {
  std::vector<KeysCase> cases = {
      {"no keys", {}},
      {"one key", {3}},
      {"1000 equal keys", std::vector<Key>(1000, 4)},
      {"12 equal keys", std::vector<Key>(12, 3)},
  };
  std::vector<Key> alternating(300);
  for (std::size_t i = 0; i < alternating.size(); ++i) alternating[i] = static_cast<Key>((i / 3) % 2);
  cases.push_back({"300 keys in runs of 3, two bins", alternating});
  std::uint64_t seed = 20261127;
  for (const char* distribution :
       {"uniform", "all-equal", "runs:1", "runs:4", "runs:8", "runs:32", "strided:2", "zipf:1.1"})
    for (int bins : {1, 3, 32, 256, 65536})
      for (std::size_t n : {7u, 33u, 257u, 1000u, 4099u, 100003u}) {
        cases.push_back({std::to_string(n) + " keys, " + distribution + ", " + std::to_string(bins) + " bins",
                         make_keys(n, bins, parse_distribution(distribution), ++seed)});
      }
  return cases;
}

}  // namespace stepwise::atomics::grading
