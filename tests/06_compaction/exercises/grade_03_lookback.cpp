// The grader of exercise 06-3 (chapters/06_compaction/exercises/README.md): the student's look-back of
// one tile, against the chapter's replay of common/device/lookback.cuh (analysis.hpp's lookback_example,
// what the lecture's look-back diagram draws), over the tile counts of the chapter's own draws.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "03_lookback.hpp"
#include "analysis.hpp"
#include "compaction_inputs.hpp"
#include "exercise_checks.hpp"

using namespace stepwise::compaction;
using stepwise::LaunchShape;
using stepwise::testing::Differences;

namespace {

/// The kept elements of tiles 0 .. last of @p input in tiles of @p shape.
std::vector<unsigned> tile_counts(const grading::DrawnInput& input, const LaunchShape& shape, std::uint64_t last) {
  std::vector<unsigned> counts;
  for (std::uint64_t k = 0; k <= last; ++k)
    counts.push_back(sliced_packing(input.plan, input.n, input.seed, k, shape).total);
  return counts;
}

/// The look-back of @p input's example tile with @p unresolved tiles of counts only before it.
void compare(Differences& differences, const grading::DrawnInput& input, const LaunchShape& shape,
             std::uint64_t unresolved) {
  const LookbackExample model = lookback_example(input.plan, input.n, input.seed, shape, unresolved);
  const std::vector<unsigned> counts = tile_counts(input, shape, model.tile);
  const exercises::LookbackAnswer yours = exercises::look_back(counts, model.tile, model.last_inclusive);
  const std::string where = input.name + ", tiles of " + std::to_string(shape.threads) + "x" +
                            std::to_string(shape.items) + ", tile " + std::to_string(model.tile) +
                            ", inclusive up to tile " + std::to_string(model.last_inclusive);
  differences.compare(where + ", windows", yours.windows, model.windows.size());
  differences.compare(where + ", lanes added in the last window", yours.lanes_added,
                      model.windows.empty() ? 0 : model.windows.back().folded_lanes);
  differences.compare(where + ", exclusive prefix", yours.exclusive_prefix, model.exclusive_prefix);
}

}  // namespace

TEST_CASE("exercise 06-3: the lecture's diagram, tile 40 of the default input, five tiles unresolved") {
  grading::DrawnInput input;
  input.name = "the default input";
  input.n = kDefaultN;
  input.seed = 20261121;
  Differences differences;
  compare(differences, input, {128, 40}, 5);
  differences.check();
  // The diagram's caption: five counts and one inclusive prefix add up to 102,077.
  CHECK(lookback_example(input.plan, input.n, input.seed, {128, 40}, 5).exclusive_prefix == 102077);
}

TEST_CASE("exercise 06-3: every input, three tiles, 0 to 70 tiles unresolved (windows of counts only)") {
  Differences differences;
  for (const grading::DrawnInput& input : grading::drawn_inputs())
    for (const LaunchShape shape : {LaunchShape{128, 40}, LaunchShape{256, 12}, LaunchShape{128, 4}})
      for (std::uint64_t unresolved : {0, 1, 5, 30, 31, 32, 33, 38, 39, 63, 64, 70})
        compare(differences, input, shape, unresolved);
  differences.check();
}
