// The scan's baseline: cub::DeviceScan::InclusiveScan of all n values on GPU 0, the same data
// and the same checks as the distributed stages. One GPU moves 2n bytes; the distributed stages
// move 4n/G (stage 1) or 3n/G (stage 2) on each GPU plus one AllGather of G values, and the
// README's speedup is this row's time over theirs.
//
// CUB at its best: the values go in as the type and operator its tuned sum is written for,
// ::cuda::std::plus over uint32 (int32's wrapping sum, bit for bit) or float. Handed the
// chapter's own operator types (WrappingSum, FloatSum), CUB cannot know they add and runs its
// generic tuning, which on an H100 at 2^30 int32 took 4.07 ms against 3.49 with plus.
#include <cub/device/device_scan.cuh>

#include <cstdint>

#include "host/check.hpp"
#include "scan.hpp"

namespace stepwise::multigpu {
namespace {

/// The value type CUB's tuned sum takes for the chapter's @p Op, added with ::cuda::std::plus.
template <class Op>
struct LibrarySum;
template <>
struct LibrarySum<WrappingSum> {
  using type = std::uint32_t;
};
template <>
struct LibrarySum<FloatSum> {
  using type = float;
};
template <class Op>
using LibraryType = typename LibrarySum<Op>::type;

}  // namespace

template <class Op>
std::size_t cub_scan_temp_bytes(std::size_t n) {
  using L = LibraryType<Op>;
  std::size_t bytes = 0;
  STEPWISE_CUDA_CHECK(cub::DeviceScan::InclusiveScan(nullptr, bytes, static_cast<const L*>(nullptr),
                                                     static_cast<L*>(nullptr), ::cuda::std::plus<L>{}, n));
  return bytes;
}

namespace {

template <class Op>
void launch(const ScanOperands<Op>& ops, const LaunchShape&) {
  const ScopedDevice device(0);
  ScanGpuMemory& own = (*ops.memory)[0];
  std::size_t bytes = own.temp.size();
  if (ops.n > 0)
    STEPWISE_CUDA_CHECK(
        cub::DeviceScan::InclusiveScan(own.temp.data(), bytes, reinterpret_cast<const LibraryType<Op>*>(ops.whole_in),
                                       reinterpret_cast<LibraryType<Op>*>(ops.whole_out),
                                       ::cuda::std::plus<LibraryType<Op>>{}, ops.n, ops.team->stream(0)));
}

}  // namespace

template <class Op>
ScanStage<Op> cub_scan_one_gpu() {
  ScanStage<Op> stage;
  stage.name = "cub::DeviceScan (GPU 0)";
  stage.lesson = "one GPU scans all n values: the baseline the distributed stages must beat";
  stage.kind = RowKind::library;
  stage.launch = launch<Op>;
  stage.traits.one_gpu = true;
  return stage;
}

template std::size_t cub_scan_temp_bytes<WrappingSum>(std::size_t);
template std::size_t cub_scan_temp_bytes<FloatSum>(std::size_t);
template ScanStage<WrappingSum> cub_scan_one_gpu<WrappingSum>();
template ScanStage<FloatSum> cub_scan_one_gpu<FloatSum>();

}  // namespace stepwise::multigpu
