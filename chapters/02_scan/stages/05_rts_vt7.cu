// Stage 5, reduce-then-scan with register tiles of 128 x 7.
//
// Changed from stage 4: VT = 7 instead of 8, nothing else. In the thread-order side of the
// transpose lane l reads word l*VT + i, whose bank is (l*VT + i) mod 32: with an odd VT the
// 32 lanes of a warp hit 32 different banks, so both transposes become conflict-free
// (--analyze prints the table; the README's Nsight Compute counters confirm it). A thread's
// 7 words (28 bytes) allow no wider aligned access, so the compiler reads them one 32-bit
// word at a time: 7 conflict-free accesses where stage 4 had 2 two-way ones. The README also
// shows how little that buys here: the reduce-then-scan passes are bound by DRAM, and the
// extra shared-memory wavefronts mostly hide behind memory latency.
#include "scan.cuh"
#include "scan.hpp"

namespace stepwise::scan {
namespace {

constexpr LaunchShape kShape{128, 7};

template <class Op>
void launch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, const ScanOptions& options,
            ScanWorkspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_shape(shape, kShape);
  reduce_then_scan<kShape.threads, kShape.items, Op, LadderBlockScan<kShape.threads, Op>>(in, out, n, options,
                                                                                          workspace, stream);
}

}  // namespace

template <class Op>
ScanStage<Op> rts_vt7() {
  ScanStage<Op> stage;
  stage.name = "rts-vt7";
  stage.lesson = "VT = 7, odd: every bank once per warp per step, conflict-free transposes";
  stage.shape = kShape;
  stage.options = {"--scalar-transpose"};  // the width of its transposes' shared accesses
  stage.launch = launch<Op>;
  return stage;
}

SCAN_STAGE_ROWS(rts_vt7);

}  // namespace stepwise::scan
