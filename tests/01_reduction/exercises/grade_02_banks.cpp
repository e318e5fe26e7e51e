// The grader of exercise 01-2 (chapters/01_reduction/exercises/README.md): the student's bank conflict
// degree of one warp-wide access, against the chapter's (reduce_analysis.hpp's bank_conflict_degree,
// the count --analyze and its Nsight Compute comparison rest on), on the README's cases, the
// accesses of kernels 2 and 3, and random ones.
#include <doctest/doctest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "02_banks.hpp"
#include "exercise_checks.hpp"
#include "reduce_analysis.hpp"

using namespace stepwise::reduction;
using stepwise::testing::Differences;

namespace {

std::string show(const std::vector<unsigned>& words) {
  std::ostringstream text;
  text << "words {";
  for (std::size_t i = 0; i < words.size(); ++i) text << (i ? ", " : "") << words[i];
  text << "}";
  return text.str();
}

void compare(Differences& differences, const std::vector<unsigned>& words) {
  differences.compare(show(words), exercises::warp_conflict_degree(words), bank_conflict_degree(words));
}

}  // namespace

TEST_CASE("exercise 01-2: the README's cases, broadcasts and an empty warp") {
  Differences differences;
  for (const std::vector<unsigned>& words : std::vector<std::vector<unsigned>>{
           {}, {7}, {0, 32, 64}, {5, 5, 5, 5}, {0, 32, 32, 1, 33}, {31, 63, 95, 127, 31}, {1000, 8, 40, 72}})
    compare(differences, words);
  std::vector<unsigned> consecutive;
  std::vector<unsigned> even;
  for (unsigned lane = 0; lane < 32; ++lane) {
    consecutive.push_back(100 + lane);
    even.push_back(2 * lane);
  }
  compare(differences, consecutive);
  compare(differences, even);
  differences.check();
}

TEST_CASE("exercise 01-2: every access of kernels 2 and 3 at every block size") {
  Differences differences;
  for (Addressing scheme : {Addressing::interleaved_strided, Addressing::sequential}) {
    for (unsigned block = 64; block <= 1024; block *= 2) {
      for (unsigned stride : tree_strides(scheme, block)) {
        for (unsigned warp = 0; warp < block / kWarpSize; ++warp) {
          const WarpAccesses accesses = warp_accesses(scheme, block, stride, warp);
          compare(differences, accesses.left);
          compare(differences, accesses.right);
        }
      }
    }
  }
  differences.check();
}

TEST_CASE("exercise 01-2: random accesses, with and without repeated words") {
  std::mt19937 random(20261121);
  Differences differences;
  for (int trial = 0; trial < 2000; ++trial) {
    const unsigned lanes = std::uniform_int_distribution<unsigned>(1, 32)(random);
    const unsigned range = trial % 2 == 0 ? 96 : 4096;  // few words: many repeats, many words: few
    std::uniform_int_distribution<unsigned> word(0, range - 1);
    std::vector<unsigned> words;
    for (unsigned lane = 0; lane < lanes; ++lane) words.push_back(word(random));
    compare(differences, words);
  }
  differences.check();
}
