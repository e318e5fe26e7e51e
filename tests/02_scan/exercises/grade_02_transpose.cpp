// The grader of exercise 02-2 (chapters/02_scan/exercises/README.md): the student's conflicts of the
// transpose's thread-order side, against the chapter's bank model replaying the index maps the kernels
// call (bank_conflicts.hpp's transpose_cost and transpose_conflicts_per_tile, what `--analyze` prints),
// at every width every VT allows, and against the lecture's Nsight Compute counts.
#include <doctest/doctest.h>

#include <string>

#include "02_transpose.hpp"
#include "bank_conflicts.hpp"
#include "exercise_checks.hpp"

using namespace stepwise::scan;
using stepwise::testing::Differences;

namespace {

void compare(Differences& differences, int nt, int vt, int width) {
  const exercises::TransposePrediction yours = exercises::predict_transpose(nt, vt, width);
  const TransposeCost model = transpose_cost(nt, vt, width);
  const std::string where =
      std::to_string(nt) + " x " + std::to_string(vt) + ", " + std::to_string(32 * width) + "-bit accesses";
  differences.compare(where + ", instructions", yours.instructions, model.instructions);
  differences.compare(where + ", degree", yours.degree, model.degree);
  differences.compare(where + ", conflicts per tile", yours.conflicts_per_tile,
                      transpose_conflicts_per_tile(nt, vt, width));
}

}  // namespace

TEST_CASE("exercise 02-2: the lecture's tiles, 128 x 8, 128 x 7, 128 x 12 and 128 x 28") {
  Differences differences;
  for (int width : {1, 2, 4}) {
    compare(differences, 128, 8, width);
    compare(differences, 128, 12, width);
    compare(differences, 128, 28, width);
  }
  compare(differences, 128, 7, 1);
  differences.check();
}

TEST_CASE("exercise 02-2: every VT from 1 to 32 at every width it allows, NT from 32 to 1024") {
  Differences differences;
  for (int nt : {32, 64, 96, 128, 160, 256, 384, 512, 1024})
    for (int vt = 1; vt <= 32; ++vt)
      for (int width : {1, 2, 4})
        if (vt % width == 0) compare(differences, nt, vt, width);
  differences.check();
}

TEST_CASE("exercise 02-2: Nsight Compute's load conflicts of stage 4's downsweep at 2^24 (16,384 tiles)") {
  constexpr long long kTiles = 16384;
  Differences differences;
  differences.compare("128 x 8 read as LDS.128 (stage 4's SASS), per launch",
                      kTiles * exercises::predict_transpose(128, 8, 4).conflicts_per_tile, 524288LL);
  differences.compare("128 x 8 read with 32-bit accesses (--scalar-transpose), per launch",
                      kTiles * exercises::predict_transpose(128, 8, 1).conflicts_per_tile, 3670016LL);
  differences.compare("128 x 7 (stage 5), per launch",
                      kTiles * exercises::predict_transpose(128, 7, 1).conflicts_per_tile, 0LL);
  differences.check();
}
