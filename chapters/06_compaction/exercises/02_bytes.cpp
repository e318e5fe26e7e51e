// Exercise 06-2: the bytes each stage moves (README.md, "06-2").
//
// The lesson: every compaction must read its input once and write its kept elements once; that
// is the speed of light, and the GB/s column counts exactly those bytes. Keeping the order
// without atomics costs more: count-scan-scatter (stages 4 and 5) reads the test bytes a second
// time, and the single pass (stages 6 and 7) adds a ticket and a status word per tile. The bytes
// a stage moves over the bytes every compaction must move bound how close to a memcpy it can get.
//
// Predict first: at 2^26 int32 keys and 50 % kept, the bytes of stage 1, stage 4 and stage 7
// (tiles of 128 x 40); then with flag bytes at 1 %. Then write the function from the cost model
// in traits.hpp. Grade it with `ctest --test-dir build -L exercise-06`.
#include "02_bytes.hpp"

#include "host/exercise.hpp"

namespace stepwise::compaction::exercises {

double bytes_moved([[maybe_unused]] const CompactionInput& input, [[maybe_unused]] const SelectCost& cost,
                   [[maybe_unused]] std::uint64_t tile, [[maybe_unused]] double blocks) {
  // TODO: the one read and one write every compaction makes, then what this stage's cost model adds.
  throw NotDoneYet("06-2", "bytes_moved", __FILE__);
}

}  // namespace stepwise::compaction::exercises
