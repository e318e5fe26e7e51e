// Stage 4, reduce-then-scan with register tiles of 128 x 8.
//
// Changed from stage 3: no tree and no recursion. A grid as large as the GPU holds at once
// splits the input into contiguous runs of 128 x 8 tiles, one run per block, and scans in
// three passes (scan.cuh): the upsweep reduces each run to one total, one block scans the
// totals (the spine), and the downsweep rescans each run seeded with its prefix. Only one
// value per block crosses between the passes: 3n traffic instead of 4n. Inside a tile each
// thread owns 8 consecutive items in registers: it reduces and rescans them sequentially,
// and only the 128 thread totals go through a parallel scan (moderngpu's CTAScan ladder in
// shared memory). The tile moves between strided, coalesced global accesses and thread
// order through shared memory. With one 32-bit access per item, VT = 8 makes lanes 4 apart
// read the same bank: 8-way conflicts on every step, Baxter's count. But a thread's 8 words
// are 32 contiguous, 16-byte-aligned bytes, and the compiler reads and writes them as two
// 128-bit accesses (LDS.128 / STS.128), served a quarter-warp at a time: 2-way (lanes l and
// l + 4 of each 8), which is what Nsight Compute counts (README). --scalar-transpose forces
// the 32-bit accesses and shows the 8-way cost. The README's tables show the big step from
// stage 3.
#include "scan.cuh"
#include "scan.hpp"

namespace stepwise::scan {
namespace {

constexpr LaunchShape kShape{128, 8};

template <class Op>
void launch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, const ScanOptions& options,
            ScanWorkspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_shape(shape, kShape);
  reduce_then_scan<kShape.threads, kShape.items, Op, LadderBlockScan<kShape.threads, Op>>(in, out, n, options,
                                                                                          workspace, stream);
}

}  // namespace

template <class Op>
ScanStage<Op> rts_vt8() {
  ScanStage<Op> stage;
  stage.name = "rts-vt8";
  stage.lesson = "reduce-then-scan, 128x8 register tiles: 3n traffic; transposes 2-way conflicted (8-way if 32-bit)";
  stage.shape = kShape;
  stage.options = {"--scalar-transpose"};  // the width of its transposes' shared accesses
  stage.launch = launch<Op>;
  return stage;
}

SCAN_STAGE_ROWS(rts_vt8);

}  // namespace stepwise::scan
