// Stage 5, tuned: no single kernel is best for every matrix, so the stage looks at the rows
// first (their longest and mean length, known on the host once per matrix) and picks.
//
// Changed from stages 3 and 4, what the sweeps and counters of the README showed:
// - Regular rows (the longest at most 2 x the mean + 32: stencils, uniform rows) need no load
//   balancing, and stage 4's merge pays for what they do not need (the partition search, the
//   products' round trip through shared memory, two barriers per tile).
//   - Short regular rows (a mean below 12) take stage 1's thread per row: neighbouring rows
//     are neighbours in memory, so what one step of a warp's loop leaves in L1 the next steps
//     use, and no lane idles in a group or waits in a shuffle (the 2-D 5-point stencil runs
//     at 93 % of the copy this way).
//   - Longer regular rows take stage 3's vector kernel, with each lane's next four nonzeros
//     loaded before any is used (four loads of columns and values, then four gathers of x,
//     in flight at once instead of one), read "evict first" (ld.global.cs), and a smaller
//     group per row than stage 3 (a quarter of the mean row, at least 8 lanes).
// - Irregular rows (power-law graphs, a huge row) take stage 4's merge-based kernel on tiles
//   of 128 x 9 items (128 x 7 in float64, whose items take 20 bytes of shared memory against
//   12: on the R-MAT matrix 0.81 ms against 0.86 at 128 x 9), with two changes: the matrix's
//   streams are read "evict first" (ld.global.cs), so that the lines of x, read again and
//   again, are the ones L2 keeps (on the R-MAT matrix the kernel's DRAM reads fall from 637 to
//   560 MB); and the shared-memory carveout is set for only blocks_per_sm tiles per SM (8),
//   which leaves the rest of the SM's 256 KiB to L1. At full occupancy, tiles of 9 items per
//   thread take 1.6x longer than tiles of 7 on that matrix; with the carveout they are the
//   fastest shape in float32 (the README's sweep).
#include <algorithm>
#include <stdexcept>

#include "analysis.hpp"
#include "dispatch.hpp"
#include "spmv.cuh"
#include "spmv.hpp"
#include "warp.cuh"

namespace stepwise::spmv {
namespace {

using Threads = IntList<128, 256>;
using Values = IntList<7, 9>;
using Lanes = IntList<8, 16, 32>;

/// Nonzeros each lane loads before it uses any (the vector kernel's unrolling).
constexpr int kUnroll = 4;

template <int L, class T>
__global__ void spmv_lanes_unrolled(const CsrView<T> matrix, const T* __restrict__ x, T* __restrict__ y) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = thread / L;
  const int lane = static_cast<int>(thread % L);
  const bool valid = row < matrix.rows;  // every lane reaches the shuffles (they name the full warp)
  const std::int32_t row_begin = valid ? matrix.offsets[row] : 0;
  const std::int32_t row_end = valid ? matrix.offsets[row + 1] : 0;
  T sum = T(0);
  for (std::int32_t j = row_begin + lane; j < row_end; j += L * kUnroll) {
    std::int32_t column[kUnroll];
    T value[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int32_t k = j + u * L;
      column[u] = k < row_end ? __ldcs(matrix.columns + k) : 0;
      value[u] = k < row_end ? __ldcs(matrix.values + k) : T(0);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) sum += value[u] * __ldg(x + column[u]);
  }
#pragma unroll
  for (int offset = L / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(kFullWarp, sum, offset, L);
  if (valid && lane == 0) y[row] = sum;
}

template <class T>
__global__ void spmv_short_rows(const CsrView<T> matrix, const T* __restrict__ x, T* __restrict__ y) {
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= matrix.rows) return;
  const std::int32_t row_end = matrix.offsets[row + 1];
  T sum = T(0);
  for (std::int32_t j = matrix.offsets[row]; j < row_end; ++j) sum += matrix.values[j] * __ldg(x + matrix.columns[j]);
  y[row] = sum;
}

template <int NT, int VT, class T>
__global__ void __launch_bounds__(NT)
    spmv_merge_tiles_streaming(const CsrView<T> matrix, const T* __restrict__ x, T* __restrict__ y,
                               const std::int64_t* __restrict__ partitions, Carry<T>* __restrict__ carries) {
  using Tile = MergeSpmvTile<NT, VT, T, StreamLoads::streaming>;
  __shared__ typename Tile::Storage storage;
  Tile::run(matrix, x, y, partitions, carries, storage);
}

/// Sets @p kernel's shared-memory carveout for @p blocks blocks of @p bytes each per SM (once per
/// value: timed runs make no attribute calls). The carveout is a percentage of the SM's shared
/// memory; the rest of the 256 KiB of L1/shared is L1 cache.
template <auto kKernel>
void carve_shared_for(int blocks, std::size_t bytes) {
  static int carved_for = -1;
  if (blocks == carved_for) return;
  static const int shared_per_sm = [] {
    int device = 0, value = 0;
    STEPWISE_CUDA_CHECK(cudaGetDevice(&device));
    STEPWISE_CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
    return value;
  }();
  const double needed =
      static_cast<double>(blocks) * (static_cast<double>(bytes) + 1024.0);  // 1 KiB reserved per block
  const int percent = std::min(100, static_cast<int>(100.0 * needed / shared_per_sm) + 1);
  STEPWISE_CUDA_CHECK(cudaFuncSetAttribute(kKernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent));
  carved_for = blocks;
}

template <class T>
void launch_vector(const CsrView<T>& matrix, const T* x, T* y, int threads, cudaStream_t stream) {
  const double mean = static_cast<double>(matrix.nnz) / static_cast<double>(matrix.rows);
  if (mean < kShortRowMean) {
    spmv_short_rows<T><<<grid_of(ceil_div(matrix.rows, threads)), threads, 0, stream>>>(matrix, x, y);
    STEPWISE_CHECK_LAUNCH();
    return;
  }
  dispatch(tuned_vector_lanes_for(mean), Lanes{}, "lanes per row", [&](auto lanes_per_row) {
    constexpr int kL = decltype(lanes_per_row)::value;
    const std::size_t total = static_cast<std::size_t>(matrix.rows) * kL;
    spmv_lanes_unrolled<kL, T><<<grid_of(ceil_div(total, threads)), threads, 0, stream>>>(matrix, x, y);
    STEPWISE_CHECK_LAUNCH();
  });
}

template <class T>
void launch(const CsrView<T>& matrix, const T* x, T* y, Workspace& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  require_threads(shape.threads);
  if (shape.blocks_per_sm < 1) throw std::invalid_argument("blocks per SM must be at least 1");
  if (matrix.rows == 0) return;
  const double mean = static_cast<double>(matrix.nnz) / static_cast<double>(matrix.rows);
  if (rows_are_regular(matrix.longest_row, mean)) {
    launch_vector(matrix, x, y, shape.threads, stream);
    return;
  }
  dispatch(shape.threads, Threads{}, "threads per block", [&](auto threads) {
    dispatch(shape.items, Values{}, "items per thread", [&](auto values) {
      constexpr int kNT = decltype(threads)::value;
      constexpr int kVT = decltype(values)::value;
      constexpr auto kKernel = spmv_merge_tiles_streaming<kNT, kVT, T>;
      carve_shared_for<kKernel>(shape.blocks_per_sm,
                                sizeof(typename MergeSpmvTile<kNT, kVT, T, StreamLoads::streaming>::Storage));
      launch_merge_spmv<kNT, kVT, StreamLoads::streaming>(kKernel, matrix, x, y, workspace, stream);
    });
  });
}

}  // namespace

template <class T>
SpmvStage<T> spmv_tuned() {
  SpmvStage<T> stage;
  stage.name = "tuned";
  stage.lesson =
      "by the rows: regular ones a vector kernel with 4 loads in flight per lane, irregular ones stage 4 "
      "with evict-first streams and L1 left for x";
  stage.shape = sizeof(T) == 8 ? LaunchShape{128, 7, 8} : LaunchShape{128, 9, 8};
  stage.sweep = shape_grid(Threads::values(), Values::values(), {6, 8, 12, 16});
  stage.launch = launch<T>;
  return stage;
}

template SpmvStage<float> spmv_tuned<float>();
template SpmvStage<double> spmv_tuned<double>();

}  // namespace stepwise::spmv
