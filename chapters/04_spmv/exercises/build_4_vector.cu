// Exercise 04-4: build stage 3, the vector kernel, from stage 1 (README.md, "04-4").
//
// Stage 3's lesson (stages/03_vector.cu): a group of L lanes of a warp per row. Stage 1 gives a
// thread a whole row, so at each step of its loop a warp's 32 loads land a row apart (uncoalesced),
// and a warp runs as long as its longest row. Here the L lanes of a row read its nonzeros together,
// lane k taking nonzeros k, k + L, k + 2L, ..., so each step is one contiguous read of L values and
// L columns; the L partial sums then meet in a shuffle tree of log2(L) steps (registers, no shared
// memory, no barrier), and the row's first lane stores y. The launcher picks L from the mean row
// length (2 to 32): 32 lanes on rows of 4 nonzeros would leave 28 idle, 8 groups of 4 keep them busy.
//
// Start from stage 1 (stages/01_scalar.cu), whose thread r computes y[r] alone. Write
// spmv_lanes_per_row below: the launcher and the row are written. Then delete the first line of
// exercise_04_4_stage() and grade it on a GPU with
// `ctest --test-dir build -R exercise-04-4 --output-on-failure`.
#include "analysis.hpp"
#include "build_4_vector.hpp"
#include "device/warp.cuh"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/exercise.hpp"
#include "host/launch.hpp"

namespace stepwise::spmv::exercises {
namespace {

using Lanes = IntList<2, 4, 8, 16, 32>;

/// y = A x with a group of @p L consecutive lanes per row: the group of global thread t computes
/// row t / L, its lane t % L sums the row's nonzeros lane, lane + L, ..., and the group's first lane
/// stores the row's sum. The launch covers rows * L threads, rounded up to whole blocks (a multiple
/// of 32 threads), so the last warp may run past the last row.
/// @tparam L lanes per row: 2, 4, 8, 16 or 32
template <int L, class T>
__global__ void spmv_lanes_per_row(const CsrView<T> matrix, const T* __restrict__ x, T* __restrict__ y) {
  // TODO: the row and the lane of this thread; the row's nonzeros walked L apart from row_begin + lane;
  // the L partial sums added with __shfl_down_sync(kFullWarp, sum, offset, L), offset = L/2 down to 1;
  // y[row] stored by lane 0. A lane past the last row must still reach the shuffles.
}

template <class T>
void launch(const CsrView<T>& matrix, const T* x, T* y, SpmvScratch&, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  if (matrix.rows == 0) return;
  const int lanes = shape.items != 0
                        ? shape.items
                        : vector_lanes_for(static_cast<double>(matrix.nnz) / static_cast<double>(matrix.rows));
  dispatch(lanes, Lanes{}, "lanes per row", [&](auto lanes_per_row) {
    constexpr int kL = decltype(lanes_per_row)::value;
    const std::size_t threads = static_cast<std::size_t>(matrix.rows) * kL;
    spmv_lanes_per_row<kL, T><<<grid_of(ceil_div(threads, shape.threads)), shape.threads, 0, stream>>>(matrix, x, y);
    STEPWISE_CHECK_LAUNCH();
  });
}

}  // namespace

template <class T>
SpmvStage<T> exercise_04_4_stage() {
  // Delete the next line once spmv_lanes_per_row is written: until then the grader stops here.
  not_done_yet("04-4", "spmv_lanes_per_row", __FILE__);
  SpmvStage<T> stage;
  stage.name = "vector";
  stage.lesson = "L lanes per row (L from the mean row length): coalesced row reads, a shuffle-tree sum";
  stage.shape = {256, 0};
  stage.sweep = shape_grid({128, 256}, Lanes::values());
  stage.traits.model = StageModel::vector;
  stage.traits.deterministic = true;  // strided lane sums, then a fixed shuffle tree
  stage.launch = launch<T>;
  return stage;
}

SPMV_STAGE_ROWS(exercise_04_4_stage);

}  // namespace stepwise::spmv::exercises
