// Stage 1, scalar: one thread per row (the lecture's csrmul_kernel).
//
// Thread r computes y[r] = sum of values[j] * x[columns[j]] over its row, exactly as the serial
// loop does, and nothing else changes: the parallelism is the rows. Two costs follow from
// giving a thread a whole row. Neighbouring threads read neighbouring rows, so at each step of
// the loop a warp's 32 loads of `values` and `columns` land in up to 32 different places (a
// row apart): uncoalesced, up to 32 sectors per request where a coalesced read needs 4. And a
// warp runs as long as its longest row: lanes whose rows are shorter sit idle (--analyze counts
// those idle lanes), and one long row stalls its whole warp while the rest of the GPU waits for
// that warp to finish.
#include "host/check.hpp"
#include "host/launch.hpp"
#include "spmv.hpp"

namespace stepwise::spmv {
namespace {

template <class T>
__global__ void spmv_row_per_thread(const CsrView<T> matrix, const T* __restrict__ x, T* __restrict__ y) {
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= matrix.rows) return;
  const std::int32_t row_begin = matrix.offsets[row];
  const std::int32_t row_end = matrix.offsets[row + 1];
  T sum = T(0);
  for (std::int32_t j = row_begin; j < row_end; ++j) sum += matrix.values[j] * x[matrix.columns[j]];
  y[row] = sum;
}

template <class T>
void launch(const CsrView<T>& matrix, const T* x, T* y, SpmvScratch&, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  if (matrix.rows == 0) return;
  spmv_row_per_thread<T><<<grid_of(ceil_div(matrix.rows, shape.threads)), shape.threads, 0, stream>>>(matrix, x, y);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class T>
SpmvStage<T> spmv_scalar() {
  SpmvStage<T> stage;
  stage.name = "scalar";
  stage.lesson = "one thread per row: uncoalesced reads, and a warp waits for its longest row";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512});
  stage.traits.model = StageModel::scalar;
  stage.traits.deterministic = true;  // a thread sums its row in order
  stage.launch = launch<T>;
  return stage;
}

SPMV_STAGE_ROWS(spmv_scalar);

}  // namespace stepwise::spmv
