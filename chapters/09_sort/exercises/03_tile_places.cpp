// Exercise 09-3: a tile's digit offsets in one Onesweep pass (README.md, "09-3").
//
// The lesson: a radix pass places every key with no comparison and no second read. Three counts
// add up to a key's place: where its digit starts in the output (the keys of smaller digits in
// the whole input: one histogram of the keys, scanned), the keys of its digit in the tiles before
// its own (Onesweep's look-back along the digit), and its rank among its tile's keys of that
// digit, in input order (the block's ranking, __match_any_sync). The rank in input order is what
// makes the pass stable, and a stable pass is what lets the next digit's pass keep this one's
// order among equal digits.
//
// Predict first: 4-bit digits, shift 0, the input 0x13 0x21 0x02 0x31 | 0x11 0x03 0x22 0x01 in
// tiles of four. The digit starts, tile 1's earlier counts, and the places of tile 1's keys. Then
// write the function. Grade it with `ctest --test-dir build -L exercise-09`.
#include "03_tile_places.hpp"

#include "host/exercise.hpp"

namespace stepwise::sort::exercises {

std::vector<std::uint64_t> predicted_places(
    [[maybe_unused]] const std::vector<std::uint32_t>& tile, [[maybe_unused]] int shift, [[maybe_unused]] int width,
    [[maybe_unused]] const std::vector<std::uint64_t>& digit_starts,
    [[maybe_unused]] const std::vector<std::vector<std::uint64_t>>& earlier_tiles) {
  // TODO: per digit, the earlier tiles' keys; then walk the tile, each key's digit start + earlier + rank so far.
  throw NotDoneYet("09-3", "predicted_places", __FILE__);
}

}  // namespace stepwise::sort::exercises
