// Stage 3, vector: a group of L lanes of a warp per row (Bell and Garland's "CSR vector").
//
// Changed from stage 2: the L lanes of a row read its nonzeros together, lane k taking nonzeros
// k, k + L, k + 2L, ..., so each step of the loop is one contiguous read of L values and L
// columns (coalesced) instead of 32 reads a row apart; at the end the L partial sums meet in a
// shuffle tree of log2(L) steps (registers, no shared memory, no barrier) and the row's first
// lane stores y. L comes from the mean row length (the smallest power of two at or above it,
// 2 to 32; the shape's `items` can force it): a warp of 32 lanes on rows of 4 nonzeros would
// leave 28 of them idle, 8 groups of 4 keep them busy. What remains is the imbalance between
// rows: a group still runs as long as its row, and a warp as long as its longest group.
#include "analysis.hpp"
#include "device/warp.cuh"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "spmv.hpp"

namespace stepwise::spmv {
namespace {

using Lanes = IntList<2, 4, 8, 16, 32>;

template <int L, class T>
__global__ void spmv_lanes_per_row(const CsrView<T> matrix, const T* __restrict__ x, T* __restrict__ y) {
  static_assert(L >= 2 && L <= 32 && (L & (L - 1)) == 0, "a power-of-two group inside one warp");
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = thread / L;
  const int lane = static_cast<int>(thread % L);
  // Every lane of the warp reaches the shuffles below (they name the full warp), so rows past
  // the end run an empty loop instead of returning early.
  const bool valid = row < matrix.rows;
  const std::int32_t row_begin = valid ? matrix.offsets[row] : 0;
  const std::int32_t row_end = valid ? matrix.offsets[row + 1] : 0;
  T sum = T(0);
  for (std::int32_t j = row_begin + lane; j < row_end; j += L) sum += matrix.values[j] * x[matrix.columns[j]];
#pragma unroll
  for (int offset = L / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(kFullWarp, sum, offset, L);
  if (valid && lane == 0) y[row] = sum;
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
SpmvStage<T> spmv_vector() {
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

SPMV_STAGE_ROWS(spmv_vector);

}  // namespace stepwise::spmv
