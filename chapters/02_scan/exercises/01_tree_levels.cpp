// Exercise 02-1: Blelloch's tree, level by level (README.md, "02-1").
//
// The lesson: the work-efficient tree is slower than Hillis-Steele because of where its nodes sit
// in shared memory. At stride s consecutive threads touch nodes 2s apart, so the 32 lanes of a warp
// crowd into 32 / gcd(2s, 32) banks; one padding word after every 32 nodes (stage 3) shifts each
// row of 32 by one bank and spreads them out again.
//
// Predict first: which level of the unpadded tree is the worst, and how many wavefronts does one
// block's tree take in all, unpadded and padded? Then write both tables below: one LevelCount
// {down, stride, active threads, degree, wavefronts} per level, 18 levels, in the kernel's order.
// Grade it with `ctest --test-dir build -L exercise-02`.
#include "01_tree_levels.hpp"

#include "host/exercise.hpp"

namespace stepwise::scan::exercises {

std::vector<LevelCount> predicted_levels(bool padded) {
  if (!padded) {
    // TODO: stage 2's 18 levels: return {{false, 1, 256, ?, ?}, {false, 2, 128, ?, ?}, ..., {true, 1, 256, ?, ?}};
    throw NotDoneYet("02-1", "predicted_levels", __FILE__);
  }
  // TODO: stage 3's 18 levels, node i at word i + i / 32.
  throw NotDoneYet("02-1", "predicted_levels", __FILE__);
}

}  // namespace stepwise::scan::exercises
