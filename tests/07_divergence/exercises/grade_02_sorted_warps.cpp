// The grader of exercise 07-2 (chapters/07_divergence/exercises/README.md): the student's count of the
// divergent warps left once the elements are ordered by path, against the chapter's (inputs.hpp's
// order_by_path, stage 3's order, costed by warp_cost: --analyze's "divergent warps" of stage 3), and
// against the paper's path-vector example in warps of 4 (analysis.hpp's pvector_example, the diagram).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "02_sorted_warps.hpp"
#include "analysis.hpp"
#include "divergence_inputs.hpp"
#include "exercise_checks.hpp"

using namespace stepwise::divergence;
using stepwise::testing::Differences;

namespace {

std::vector<std::size_t> histogram_of(const std::vector<std::uint8_t>& paths) {
  std::vector<std::size_t> histogram(kMaxPaths, 0);
  for (std::uint8_t p : paths) ++histogram[p];
  return histogram;
}

std::string show(const std::vector<std::size_t>& histogram) {
  std::ostringstream text;
  text << "histogram {";
  for (std::size_t p = 0; p < histogram.size(); ++p) text << (p ? ", " : "") << histogram[p];
  text << "}";
  return text.str();
}

/// Your count for @p paths in warps of 32 against stage 3's order costed by warp_cost.
void compare(Differences& differences, const std::string& name, const std::vector<std::uint8_t>& paths) {
  const std::array<unsigned, kMaxPaths> rounds{1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<std::size_t> histogram = histogram_of(paths);
  differences.compare(name + ", " + show(histogram) + ", divergent warps after the sort",
                      exercises::divergent_after_sort(histogram, kWarp),
                      warp_cost(paths, order_by_path(paths), rounds.data()).divergent_warps);
}

}  // namespace

TEST_CASE("exercise 07-2: the paper's example in warps of 4, as the lecture's diagram draws it") {
  const PvectorExample example = pvector_example();
  std::size_t model = 0;
  for (unsigned paths : example.paths_after) model += paths > 1 ? 1 : 0;
  std::vector<std::size_t> histogram(4, 0);
  for (std::uint8_t p : example.paths) ++histogram[p];
  Differences differences;
  differences.compare("the path-vector example, " + show(histogram) + ", warps of 4, divergent warps after the remap",
                      exercises::divergent_after_sort(histogram, example.warp_width), model);
  differences.check();
}

TEST_CASE("exercise 07-2: every input of both workloads, in warps of 32") {
  Differences differences;
  for (const grading::PathInput& input : grading::path_inputs()) compare(differences, input.name, input.paths);
  differences.check();
}

TEST_CASE("exercise 07-2: histograms with empty paths, runs ending at warp edges, one element") {
  std::mt19937 random(20261126);
  Differences differences;
  for (int trial = 0; trial < 500; ++trial) {
    const unsigned paths = std::uniform_int_distribution<unsigned>(1, kMaxPaths)(random);
    std::vector<std::uint8_t> elements;
    for (unsigned p = 0; p < paths; ++p) {
      const int kind = std::uniform_int_distribution<int>(0, 3)(random);  // empty, a multiple of 32, short, long
      std::size_t count = 0;
      if (kind == 1) count = 32 * std::uniform_int_distribution<std::size_t>(1, 4)(random);
      if (kind == 2) count = std::uniform_int_distribution<std::size_t>(1, 40)(random);
      if (kind == 3) count = std::uniform_int_distribution<std::size_t>(41, 300)(random);
      elements.insert(elements.end(), count, static_cast<std::uint8_t>(p));
    }
    std::shuffle(elements.begin(), elements.end(), random);
    compare(differences, "random trial " + std::to_string(trial), elements);
  }
  compare(differences, "one element", {5});
  compare(differences, "no element", {});
  differences.check();
}
