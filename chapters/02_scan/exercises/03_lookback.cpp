// Exercise 02-3: the windows of a look-back (README.md, "02-3").
//
// The lesson: stage 7's tile does not wait for its predecessor's whole prefix. One warp reads the
// statuses of the 32 tiles before it at once, lane l tile window_end - 1 - l; the nearest tile that
// has published its inclusive prefix ends the search, and the aggregates between it and the tile are
// folded on the way. Without one the window moves 32 tiles back, folding all 32 aggregates.
//
// Predict first: tile 80 when tiles 0-40 have published their inclusive prefix (the lecture's diagram):
// how many windows, which lane stops the search, how many lanes are folded in each window? Tile 100
// when no tile has an inclusive prefix yet? Then write the function. Grade it with
// `ctest --test-dir build -L exercise-02`.
#include "03_lookback.hpp"

#include "host/exercise.hpp"

namespace stepwise::scan::exercises {

std::vector<WindowPrediction> predicted_windows([[maybe_unused]] long long tile,
                                                [[maybe_unused]] long long last_inclusive) {
  // TODO: one window per 32 predecessors until a lane sees an inclusive prefix.
  throw NotDoneYet("02-3", "predicted_windows", __FILE__);
}

}  // namespace stepwise::scan::exercises
