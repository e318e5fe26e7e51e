// Exercise 02-4: build stage 6, reduce-then-scan with a warp-shuffle block scan, from stage 5
// (README.md, "02-4").
//
// Stage 6's lesson (stages/06_rts_shuffle.cu): the parallel scan of the 128 thread totals of a
// tile. Stage 5's ladder (LadderBlockScan in scan.cuh) runs log2(128) = 7 steps in shared memory,
// each a barrier for the whole block. Instead, each warp scans its 32 totals in registers with
// shuffles (no barrier), its lane 31 posts the warp's total, one __syncthreads, and every thread
// folds in the totals of the warps before its own. The three passes of reduce-then-scan (scan.cuh)
// call it once per tile: fewer barriers per tile, the same DRAM traffic.
//
// Start from stage 5 (stages/05_rts_vt7.cu) and LadderBlockScan. Write ShuffleBlockScan's
// exclusive_scan below, with the same contract as the ladder's: the launcher and the row are
// written, and the launcher runs reduce-then-scan with your block scan. Then delete the first line
// of exercise_02_4_stage() and grade it on a GPU with
// `ctest --test-dir build -R exercise-02-4 --output-on-failure`.
#include "build_4_rts_shuffle.hpp"
#include "host/exercise.hpp"
#include "scan.cuh"
#include "scan.hpp"

namespace stepwise::scan::exercises {

/// The block-wide exclusive scan of one value per thread, with shuffles and one barrier.
/// @tparam NT threads per block, a multiple of 32, at most 1024
template <int NT, class Op>
struct ShuffleBlockScan {
  using T = typename Op::value_type;
  static constexpr int kWarps = NT / 32;
  static_assert(NT % 32 == 0 && kWarps <= 32, "NT must be a multiple of 32, at most 1024");
  /// The shared memory one scan needs: one total per warp.
  struct Storage {
    T warp_totals[kWarps];
  };
  /// Returns the exclusive scan of @p value over the block's threads in thread order (identity
  /// for thread 0) and sets @p aggregate, in every thread, to the reduction of all NT values.
  /// @p op need not commute: the lower thread's value is always the left operand. @p storage may
  /// be written again only after the caller's next __syncthreads (the passes of scan.cuh have one).
  __device__ static T exclusive_scan([[maybe_unused]] T value, T& aggregate, [[maybe_unused]] Storage& storage,
                                     [[maybe_unused]] Op op) {
    // TODO: replace the two lines below. A warp's inclusive scan with shuffle_up (device/warp.cuh:
    // __shfl_up_sync word by word, for values of any 4k bytes); lane 31 posts it in
    // storage.warp_totals[warp]; one __syncthreads; fold the totals of the warps below this one
    // (the prefix) and of all of them (the aggregate); this lane's exclusive value is the prefix
    // op the inclusive value of the lane below (none for lane 0).
    aggregate = Op::identity();
    return Op::identity();
  }
};

namespace {

constexpr LaunchShape kShape{128, 7};

template <class Op>
void launch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, const ScanOptions& options,
            ScanWorkspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_shape(shape, kShape);
  reduce_then_scan<kShape.threads, kShape.items, Op, ShuffleBlockScan<kShape.threads, Op>>(in, out, n, options,
                                                                                           workspace, stream);
}

}  // namespace

template <class Op>
ScanStage<Op> exercise_02_4_stage() {
  // Delete the next line once ShuffleBlockScan::exclusive_scan is written: until then the grader
  // stops here.
  not_done_yet("02-4", "exclusive_scan", __FILE__);
  ScanStage<Op> stage;
  stage.name = "rts-shuffle";
  stage.lesson = "warp shuffles scan the per-thread totals: no shared-memory ladder, fewer barriers";
  stage.shape = kShape;
  stage.options = {"--scalar-transpose"};  // the width of its transposes' shared accesses
  stage.launch = launch<Op>;
  return stage;
}

SCAN_STAGE_ROWS(exercise_02_4_stage);

}  // namespace stepwise::scan::exercises
