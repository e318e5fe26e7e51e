// Stage 2, shared cache: the lecture's csrcmul_shared, which keeps the block's slice of x in
// shared memory.
//
// Changed from stage 1: block b handles rows [b*NT, (b+1)*NT) and first copies
// x[b*NT, (b+1)*NT), the slice of x "on the block's diagonal", into shared memory; a nonzero
// whose column falls in that slice reads x from there, any other from global memory. For a
// banded matrix (a stencil) most columns sit near the diagonal, so most x reads hit the slice;
// for random columns almost none do, and the copy is pure overhead. On GPUs whose L1 cached no
// global loads, the slice saved DRAM or L2 trips. On Hopper, x[j] read through L1 is already
// cached there (and `const __restrict__` lets the compiler use the read-only path), so the
// question the README answers with counters is whether the explicit cache still buys anything
// the hardware cache does not.
//
// The lecture's code does not compile and computes nothing: `row_end` is never declared
// (`uint row_begin = Ap[row]; row_end = Ap[row+1];`), and the sum is never stored to y[row].
// Here both are fixed, and the slice is clipped to the columns that exist (a rectangular
// matrix has fewer columns than rows, or more).
#include <algorithm>

#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "spmv.hpp"

namespace stepwise::spmv {
namespace {

using Threads = IntList<128, 256, 512>;

template <int NT, class T>
__global__ void __launch_bounds__(NT)
    spmv_shared_slice(const CsrView<T> matrix, const T* __restrict__ x, T* __restrict__ y) {
  __shared__ T cache[NT];  // x[begin, end): the block's slice of x
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * NT;
  const std::int64_t end = min(begin + NT, static_cast<std::int64_t>(matrix.cols));
  const std::int64_t row = begin + threadIdx.x;
  if (begin + threadIdx.x < end) cache[threadIdx.x] = x[begin + threadIdx.x];
  __syncthreads();
  if (row >= matrix.rows) return;
  const std::int32_t row_begin = matrix.offsets[row];
  const std::int32_t row_end = matrix.offsets[row + 1];
  T sum = T(0);
  for (std::int32_t col = row_begin; col < row_end; ++col) {
    const std::int32_t j = matrix.columns[col];
    const T x_j = (j >= begin && j < end) ? cache[j - begin] : x[j];  // from the slice when possible
    sum += matrix.values[col] * x_j;
  }
  y[row] = sum;
}

template <class T>
void launch(const CsrView<T>& matrix, const T* x, T* y, SpmvScratch&, const LaunchShape& shape, cudaStream_t stream) {
  dispatch(shape.threads, Threads{}, "threads per block", [&](auto threads) {
    constexpr int kNT = decltype(threads)::value;
    if (matrix.rows == 0) return;
    spmv_shared_slice<kNT, T><<<grid_of(ceil_div(matrix.rows, kNT)), kNT, 0, stream>>>(matrix, x, y);
    STEPWISE_CHECK_LAUNCH();
  });
}

}  // namespace

template <class T>
SpmvStage<T> spmv_shared_cache() {
  SpmvStage<T> stage;
  stage.name = "shared-cache";
  stage.lesson = "the block's slice of x in shared memory: helps banded matrices, not random columns";
  stage.shape = {256};
  stage.sweep = shape_grid(Threads::values());
  stage.traits.model = StageModel::shared_cache;
  stage.traits.deterministic = true;  // a thread sums its row in order
  stage.launch = launch<T>;
  return stage;
}

SPMV_STAGE_ROWS(spmv_shared_cache);

}  // namespace stepwise::spmv
