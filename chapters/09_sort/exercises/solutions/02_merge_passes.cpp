// Exercise 09-2, solved: the passes double the run length until one run covers n (none when the
// first run already does); each pass moves every key twice (a read and a write), and a block
// sort, when there is one, twice more.
#include "02_merge_passes.hpp"

namespace stepwise::sort::exercises {

MergeSortCount predicted_merge_sort(std::uint64_t n, std::uint64_t first_run, std::uint64_t key_bytes) {
  MergeSortCount count;
  for (std::uint64_t run = first_run; run < n; run *= 2) ++count.passes;
  const std::uint64_t moves = 2 * count.passes + (first_run > 1 ? 2 : 0);
  count.key_bytes = moves * n * key_bytes;
  return count;
}

}  // namespace stepwise::sort::exercises
