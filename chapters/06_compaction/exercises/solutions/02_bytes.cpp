// Exercise 06-2, solved: an element read is its key (4 bytes), its value with a payload (4) and
// its flag byte in the Flagged form (1); a kept element written is its key and its value. A
// second pass reads only what the test needs: the keys (4 bytes) or the flag bytes (1). A fixed
// grid adds its counts per block; a look-back stage 16 bytes per tile.
#include "02_bytes.hpp"

namespace stepwise::compaction::exercises {

double bytes_moved(const CompactionInput& input, const SelectCost& cost, std::uint64_t tile, double blocks) {
  const double n = static_cast<double>(input.n);
  const double written = 4.0 + (input.payload ? 4.0 : 0.0);    // per kept element
  const double read = written + (input.by_flags ? 1.0 : 0.0);  // per element
  const double test = input.by_flags ? 1.0 : 4.0;              // per element, per further pass
  double bytes = n * read + static_cast<double>(input.kept) * written;
  bytes += static_cast<double>(cost.input_passes - 1) * n * test;
  bytes += cost.count_bytes_per_block * blocks;
  if (cost.ticket_per_tile) bytes += 16.0 * static_cast<double>((input.n + tile - 1) / tile);
  return bytes;
}

}  // namespace stepwise::compaction::exercises
