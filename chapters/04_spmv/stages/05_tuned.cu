// Stage 5, tuned: no single kernel is best for every matrix, so the stage looks at the matrix
// first (its longest and mean row and where its columns lie, known on the host once per matrix)
// and picks.
//
// Changed from stages 3 and 4, what the sweeps and counters of the README showed:
// - Banded regular rows (the longest at most 2 x the mean + 32, 90 % of the nonzeros within
//   32,768 columns of the diagonal: stencils) need no load balancing, and neighbouring rows
//   read the same x from L1; stage 4's merge pays for what they do not need.
//   - Short ones (a mean below 12) take stage 1's thread per row: what one step of a warp's
//     loop leaves in L1 the next steps use, and no lane idles in a group (the 2-D 5-point
//     stencil runs at 93 % of the copy this way).
//   - Longer ones take stage 3's vector kernel, with each lane's next four nonzeros loaded
//     before any is used (four loads of columns and values, then four gathers of x in flight
//     at once instead of one), read "evict first" (ld.global.cs), and a smaller group per row
//     than stage 3 (a quarter of the mean row, at least 8 lanes).
// - Everything else (power-law graphs, a huge row, random columns) takes the merge-based SpMV
//   on CompactMergeSpmvTile (spmv.cuh). Each nonzero there gathers x from a random 32-byte
//   sector, one L2 request, and L2's request rate is the bound (ncu: L2 at 96-98 % of its
//   peak), so the tile spends as few other requests as it can: its warps load the matrix's
//   streams in whole 128-byte lines, one request each, bypassing L1 and evicted first from L2
//   so that both caches keep x; it holds 4 bytes of shared memory an item (8 in float64)
//   against stage 4's 12 (20), which leaves L1 to x. And its tile boundaries depend only on the
//   matrix, so they are searched once per matrix and tile size and kept (SpmvScratch::
//   kept_partitions), as cusparseSpMV_preprocess analyses the matrix once for the library rows:
//   a timed run is the tiles and the carry fix-up, two launches.
#include <algorithm>
#include <stdexcept>

#include "analysis.hpp"
#include "device/warp.cuh"
#include "host/dispatch.hpp"
#include "spmv.cuh"
#include "spmv.hpp"

namespace stepwise::spmv {
namespace {

using Threads = IntList<128, 256, 512>;
using Values = IntList<5, 7, 9>;
using Lanes = IntList<8, 16, 32>;

/// Nonzeros each lane loads before it uses any (the vector kernel's unrolling).
constexpr int kUnroll = 4;

/// Threads per block of the banded rows' kernels, whatever the shape (whose threads and items
/// size the merge tile), as measured on the 27-point stencil (H100): in float32 128 (0.3407 ms
/// against 0.3442 at 256), in float64 256 (0.5339 ms against 0.5448 at 128).
template <class T>
inline constexpr int kBandedThreads = sizeof(T) == 8 ? 256 : 128;

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
    spmv_compact_tiles(const CsrView<T> matrix, const T* __restrict__ x, T* __restrict__ y,
                       const std::int64_t* __restrict__ partitions, Carry<T>* __restrict__ carries) {
  using Tile = CompactMergeSpmvTile<NT, VT, T>;
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
void launch(const CsrView<T>& matrix, const T* x, T* y, SpmvScratch& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  require_threads(shape.threads);
  if (shape.blocks_per_sm < 1) throw std::invalid_argument("blocks per SM must be at least 1");
  if (matrix.rows == 0) return;
  const double mean = static_cast<double>(matrix.nnz) / static_cast<double>(matrix.rows);
  if (matrix.banded && rows_are_regular(matrix.longest_row, mean)) {
    launch_vector(matrix, x, y, kBandedThreads<T>, stream);
    return;
  }
  dispatch_tile(shape, Threads{}, Values{}, [&](auto nt, auto vt) {
    constexpr int kNT = decltype(nt)::value;
    constexpr int kVT = decltype(vt)::value;
    if constexpr (kCompactTileFits<kNT, kVT, T>) {
      constexpr auto kKernel = spmv_compact_tiles<kNT, kVT, T>;
      carve_shared_for<kKernel>(shape.blocks_per_sm, sizeof(typename CompactMergeSpmvTile<kNT, kVT, T>::Storage));
      constexpr int kTile = kNT * kVT;
      const std::size_t total = static_cast<std::size_t>(matrix.nnz) + static_cast<std::size_t>(matrix.rows);
      const SpmvScratch::KeptPartitions kept = workspace.kept_partitions(kTile, merge_partition_count(total, kTile));
      if (!kept.searched) search_tile_boundaries(matrix, kTile, kept.data, stream);
      launch_merge_tiles<kNT, kVT>(kKernel, matrix, x, y, kept.data, workspace, stream);
    } else {
      throw std::invalid_argument("a tile of " + describe(shape) + " does not fit 48 KiB of shared memory");
    }
  });
}

}  // namespace

template <class T>
SpmvStage<T> spmv_tuned() {
  SpmvStage<T> stage;
  stage.name = "tuned";
  stage.lesson =
      "by the matrix: banded regular rows a vector kernel with 4 loads in flight per lane, the rest a compact "
      "merge tile whose stream loads are whole lines that bypass L1, its tile boundaries searched once";
  stage.shape = sizeof(T) == 8 ? LaunchShape{256, 7, 4} : LaunchShape{256, 5, 4};
  stage.sweep = shape_grid(Threads::values(), Values::values(), {4, 6, 8});
  stage.traits.keeps_partitions = true;
  stage.traits.model = StageModel::tuned;
  stage.traits.deterministic = false;  // the merge path adds its tiles' carries to y atomically
  stage.launch = launch<T>;
  return stage;
}

SPMV_STAGE_ROWS(spmv_tuned);

}  // namespace stepwise::spmv
