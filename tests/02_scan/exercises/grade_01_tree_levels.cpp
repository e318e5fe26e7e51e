// The grader of exercise 02-1 (chapters/02_scan/exercises/README.md): the student's tables of Blelloch's
// tree at 256 threads, unpadded (stage 2) and padded (stage 3), against the chapter's replay of the
// index maps the kernel calls (bank_conflicts.hpp's tree_level_in_order, the table `--analyze` prints).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "01_tree_levels.hpp"
#include "bank_conflicts.hpp"
#include "exercise_checks.hpp"

using namespace stepwise::scan;
using stepwise::testing::Differences;

namespace {

/// The student's table for one layout against the model's, cell by cell, and the block's total.
void grade(bool padded) {
  const std::string layout = padded ? "padded" : "unpadded";
  const std::vector<exercises::LevelCount> yours = exercises::predicted_levels(padded);
  constexpr int nt = tree::kThreads;
  const int levels = 2 * tree_levels(nt);
  Differences differences;
  if (static_cast<int>(yours.size()) != levels)
    differences.add(layout + ": " + std::to_string(yours.size()) + " levels, the tree has " + std::to_string(levels));
  int your_total = 0;
  int model_total = 0;
  for (int k = 0; k < levels; ++k) {
    const TreeLevel model = tree_level_in_order(nt, k, padded);
    model_total += model.wavefronts;
    if (k >= static_cast<int>(yours.size())) continue;
    const exercises::LevelCount& level = yours[static_cast<std::size_t>(k)];
    your_total += level.wavefronts;
    const std::string where = layout + ", level " + std::to_string(k + 1) + " (" + (model.down ? "down" : "up") +
                              ", s = " + std::to_string(model.stride) + ")";
    differences.compare(where + ", down", level.down, model.down);
    differences.compare(where + ", stride", level.stride, model.stride);
    differences.compare(where + ", active threads", level.active, model.active);
    differences.compare(where + ", degree", level.degree, model.degree);
    differences.compare(where + ", wavefronts", level.wavefronts, model.wavefronts);
  }
  differences.compare(layout + ", wavefronts per block", your_total, model_total);
  differences.check();
}

}  // namespace

TEST_CASE("exercise 02-1: stage 2's tree, node i at word i") { grade(false); }

TEST_CASE("exercise 02-1: stage 3's tree, node i at word i + i / 32") { grade(true); }

TEST_CASE("exercise 02-1: the lecture's totals, 665 wavefronts unpadded and 140 padded") {
  int unpadded = 0;
  int padded = 0;
  for (const exercises::LevelCount& level : exercises::predicted_levels(false)) unpadded += level.wavefronts;
  for (const exercises::LevelCount& level : exercises::predicted_levels(true)) padded += level.wavefronts;
  Differences differences;
  differences.compare("unpadded wavefronts per block", unpadded, 665);
  differences.compare("padded wavefronts per block", padded, 140);
  differences.check();
}
