// Stage 6, reduce-then-scan with warp-shuffle block scans.
//
// Changed from stage 5: the parallel scan of the 128 thread totals. Stage 5's ladder in
// shared memory takes log2(128) = 7 steps, each a barrier for the whole block; common's
// BlockScan scans each warp's 32 totals with shuffles (registers, no barrier), posts one
// total per warp, and folds those after a single barrier. Fewer barriers per tile in all
// three passes; the README's tables show the gain.
#include "scan.cuh"
#include "scan.hpp"

namespace stepwise::scan {
namespace {

constexpr LaunchShape kShape{128, 7};

template <class Op>
void launch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, const ScanOptions& options,
            ScanWorkspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_shape(shape, kShape);
  reduce_then_scan<kShape.threads, kShape.items, Op, BlockScan<kShape.threads, Op>>(in, out, n, options, workspace,
                                                                                    stream);
}

}  // namespace

template <class Op>
ScanStage<Op> rts_shuffle() {
  ScanStage<Op> stage;
  stage.name = "rts-shuffle";
  stage.lesson = "warp shuffles scan the per-thread totals: no shared-memory ladder, fewer barriers";
  stage.shape = kShape;
  stage.options = {"--scalar-transpose"};  // the width of its transposes' shared accesses
  stage.launch = launch<Op>;
  return stage;
}

SCAN_STAGE_ROWS(rts_shuffle);

}  // namespace stepwise::scan
