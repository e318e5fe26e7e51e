// Exercise 09-2: the merge sort's passes and bytes a key (README.md, "09-2").
//
// The lesson: a merge sort's work grows with log n. Each pass merges neighbouring sorted runs in
// pairs, doubling their length, and reads and writes every key once; the passes end when one run
// holds all n keys. A block sort that leaves runs of a whole tile (stage 2: 128 x 15 = 1,920 keys)
// takes the first log2(tile) passes on chip for one read and one write of every key, and leaves
// ceil(log2(n / tile)) passes to global memory. A radix sort's passes depend on the key's width
// only: that is the contest between the two families.
//
// Predict first: for 2^26 uint32 keys, the passes and the key bytes of stage 1 (runs of 1), stage 2
// (runs of 1,920) and stage 3 (runs of 256 x 17 = 4,352), and the bytes a key of each. Then n = 1,
// n = 1,920 and n = 1,921 at stage 2's tile. Then write the function.
// Grade it with `ctest --test-dir build -L exercise-09`.
#include "02_merge_passes.hpp"

#include "host/exercise.hpp"

namespace stepwise::sort::exercises {

MergeSortCount predicted_merge_sort([[maybe_unused]] std::uint64_t n, [[maybe_unused]] std::uint64_t first_run,
                                    [[maybe_unused]] std::uint64_t key_bytes) {
  // TODO: double the run length from first_run until it covers n, counting passes; then the bytes.
  throw NotDoneYet("09-2", "predicted_merge_sort", __FILE__);
}

}  // namespace stepwise::sort::exercises
