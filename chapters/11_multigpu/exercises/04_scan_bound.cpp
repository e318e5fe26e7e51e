// Exercise 11-4: the least time of a scan over G GPUs (README.md, "11-4").
//
// The lesson: a scan spread over GPUs is bound by a dependency, not only by bytes. Every output
// of GPU g > 0 includes the totals of the parts before it, so no GPU but GPU 0 can write a final
// value before those parts have been read once. The best schedule reads GPU 0's part once for its
// total (a read-only pass, the faster kind), then every GPU reads and writes its own part with the
// offset folded in: chapter 11's stage 2. Against one GPU's copy of all n values this caps the
// speedup of two GPUs well below 2, however good the kernels.
//
// Predict first, by hand: for 2^30 int32 values on an H100 (R = 3.08 TB/s a read-only pass, C =
// 3.05 TB/s a copy), the least time on 1, 2, 4 and 8 GPUs, and each one's speedup over one GPU's
// copy of all n values. Then write the function. Grade it with
// `ctest --test-dir build -L exercise-11`.
#include "04_scan_bound.hpp"

#include "host/exercise.hpp"

namespace stepwise::multigpu::exercises {

double predicted_scan_least_seconds([[maybe_unused]] std::uint64_t n, [[maybe_unused]] int gpus,
                                    [[maybe_unused]] double value_bytes, [[maybe_unused]] double read_bytes_per_s,
                                    [[maybe_unused]] double copy_bytes_per_s) {
  // TODO: one GPU copies its n values; on more, a read of a part for its total, then a copy of a part.
  throw NotDoneYet("11-4", "predicted_scan_least_seconds", __FILE__);
}

}  // namespace stepwise::multigpu::exercises
