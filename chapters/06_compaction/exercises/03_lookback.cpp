// Exercise 06-3: one tile's look-back (README.md, "06-3").
//
// The lesson: in the single pass (stages 6 and 7) a tile learns where its kept elements go from
// the tiles before it, without a second pass and without an atomic on the counter. It publishes
// its own count at once; then its first warp reads the statuses of the 32 tiles before it, one
// per lane, and adds the counts up to the nearest tile that has published its inclusive prefix
// (the kept elements up to and with that tile). If none of the 32 has, it adds all 32 and reads
// the 32 before them. The sum is the tile's exclusive prefix: the order comes for free, and the
// price is the wait for the tiles before it.
//
// Predict first: the lecture's diagram (tile 40, tiles up to 34 inclusive, 35 to 39 counts only):
// how many lanes are added? With 40 tiles of counts only before tile 45? Then write the function.
// Grade it with `ctest --test-dir build -L exercise-06`.
#include "03_lookback.hpp"

#include "host/exercise.hpp"

namespace stepwise::compaction::exercises {

LookbackAnswer look_back([[maybe_unused]] const std::vector<unsigned>& counts, [[maybe_unused]] std::uint64_t tile,
                         [[maybe_unused]] std::uint64_t last_inclusive) {
  // TODO: read the windows as the warp does: what each lane sees, where the nearest inclusive prefix is, the sum.
  throw NotDoneYet("06-3", "look_back", __FILE__);
}

}  // namespace stepwise::compaction::exercises
