// Stage 5, tuned: no single kernel is best for every matrix, so the stage looks at the matrix
// first (its longest and mean row and where its columns lie, known on the host once per matrix)
// and picks.
//
// Changed from stages 3 and 4, what the sweeps and counters of the README showed:
// - Banded regular rows (the longest at most 2 x the mean + 32, 90 % of the nonzeros within
//   131,072 columns of the diagonal: stencils) need no load balancing, and neighbouring rows
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
//   a timed run is the tiles and the carry fix-up, two launches. The fix-up sums a warp's
//   carries per row before its atomics (add_tile_carries_by_warp): a row that spans thousands of
//   tiles no longer queues thousands of atomics at one address.
//
// Variant rows (--variants; `5 - change` is this stage with that one change undone): which of its
// changes pays, each measured against the stage as it stands. On banded regular matrices: the
// banded kernels (the merge tile for them too), then, inside the vector kernel for rows of 12 or
// more, the 4 loads in flight (one at a time), the evict-first loads (ordinary ones) and the
// quarter-row groups (stage 3's group size); these four change nothing on any other matrix, and
// the last three nothing on short rows either (a thread each). On every other matrix, the merge
// tile's changes: whole-line loads (from the first nonzero), the L1 bypass (ordinary loads), the
// compact storage (stage 4's three arrays), the segmented scan (shared-memory atomics), the kept
// partitions (searched on every call), the warp-summed carries (an atomic per tile), the shared
// carveout (none set) and the tile, 256 x 5
// (256 x 7 in float64; stage 4's 128 x 7); these change nothing on a banded regular matrix. Compact storage and the
// segmented scan are undone one at a time: the scan runs in the three arrays, and the atomics in
// the one buffer once every thread is done reading it.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "analysis.hpp"
#include "device/warp.cuh"
#include "host/dispatch.hpp"
#include "spmv.cuh"
#include "spmv.hpp"

namespace stepwise::spmv {
namespace {

/// Nonzeros each lane loads before it uses any (the vector kernel's unrolling).
constexpr int kUnroll = 4;

/// The default tile: 256 threads of 5 items (float32) or 7 (float64), the merge tile's shared
/// memory carved out for 4 blocks an SM.
constexpr int kThreads = 256;
template <class T>
inline constexpr int kItems = sizeof(T) == 8 ? 7 : 5;
constexpr int kBlocksPerSm = 4;
/// Stage 4's tile, which `5 - tile 256x5` (`tile 256x7` in float64) runs instead.
constexpr int kMergeThreads = 128;
constexpr int kMergeItems = 7;

/// Stage 5 as it stands: every change on. Each variant row's struct turns one off.
struct AllChanges {
  using Tile = CompactTileFeatures;        ///< the merge tile's changes (spmv.cuh)
  using Threads = IntList<128, 256, 512>;  ///< the merge tiles compiled: every shape of the sweep
  using Values = IntList<5, 7, 9>;
  /// Banded regular rows take the vector kernels (short ones a thread each); off: the merge tile.
  static constexpr bool banded_kernels = true;
  /// Nonzeros each lane of the vector kernel loads before it uses any; off: 1, as stage 3.
  static constexpr int loads_in_flight = kUnroll;
  /// The vector kernel reads columns and values "evict first" (ld.global.cs); off: ordinary loads.
  static constexpr bool evict_first = true;
  /// The vector kernel's group per row: a quarter of the mean row, at least 8 lanes
  /// (tuned_vector_lanes_for); off: stage 3's, the mean row rounded up (vector_lanes_for).
  static constexpr bool quarter_row_groups = true;
  /// The merge tile's boundaries searched once per matrix and tile size and kept; off: searched
  /// on every call, as stage 4.
  static constexpr bool kept_partitions = true;
  /// The carry fix-up sums a warp's carries per row, one atomic per run; off: one per tile, as stage 4.
  static constexpr bool warp_carries = true;
  /// The merge tile's shared-memory carveout set for the shape's blocks per SM, the rest of the
  /// SM's L1/shared memory left to L1; off: no carveout set, the driver's choice.
  static constexpr bool carveout = true;
};

/// A variant row runs at the default tile only, and compiles no other.
template <class T>
struct Variant : AllChanges {
  using Threads = IntList<kThreads>;
  using Values = IntList<kItems<T>>;
};
/// `5 - banded kernels`: banded regular rows take the compact merge tile too.
template <class T>
struct WithoutBandedKernels : Variant<T> {
  static constexpr bool banded_kernels = false;
};
/// `5 - 4 loads in flight`: each lane of the vector kernel loads one nonzero at a time.
template <class T>
struct WithoutLoadsInFlight : Variant<T> {
  static constexpr int loads_in_flight = 1;
};
/// `5 - evict-first loads`: the vector kernel's columns and values read with ordinary loads.
template <class T>
struct WithoutEvictFirst : Variant<T> {
  static constexpr bool evict_first = false;
};
/// `5 - quarter-row groups`: stage 3's group per row, the mean row rounded up to a power of two.
template <class T>
struct WithoutQuarterRowGroups : Variant<T> {
  static constexpr bool quarter_row_groups = false;
};
/// `5 - whole-line loads`: the merge tile's stream loads start at the tile's first nonzero.
template <class T>
struct WithoutLineAlignedLoads : Variant<T> {
  struct Tile : CompactTileFeatures {
    static constexpr bool line_aligned_loads = false;
  };
};
/// `5 - L1 bypass`: the merge tile's stream loads are ordinary loads.
template <class T>
struct WithoutL1Bypass : Variant<T> {
  struct Tile : CompactTileFeatures {
    static constexpr bool bypass_l1 = false;
  };
};
/// `5 - compact storage`: the merge tile in stage 4's three shared arrays.
template <class T>
struct WithoutCompactStorage : Variant<T> {
  struct Tile : CompactTileFeatures {
    static constexpr bool compact_storage = false;
  };
};
/// `5 - segmented scan`: a row split between threads summed with shared-memory atomics.
template <class T>
struct WithoutSegmentedScan : Variant<T> {
  struct Tile : CompactTileFeatures {
    static constexpr bool segmented_scan = false;
  };
};
/// `5 - kept partitions`: the merge tile's boundaries searched on every call.
template <class T>
struct WithoutKeptPartitions : Variant<T> {
  static constexpr bool kept_partitions = false;
};
/// `5 - warp-summed carries`: every tile's carry added with an atomic of its own.
template <class T>
struct WithoutWarpCarries : Variant<T> {
  static constexpr bool warp_carries = false;
};
/// `5 - shared carveout`: no carveout set for the merge tile.
template <class T>
struct WithoutCarveout : Variant<T> {
  static constexpr bool carveout = false;
};
/// `5 - tile`: stage 4's tile, 128 x 7.
struct WithMergeTile : AllChanges {
  using Threads = IntList<kMergeThreads>;
  using Values = IntList<kMergeItems>;
};

using Lanes = IntList<8, 16, 32>;

/// Threads per block of the banded rows' kernels, whatever the shape (whose threads and items
/// size the merge tile), as measured on the 27-point stencil (H100): in float32 128 (0.3407 ms
/// against 0.3442 at 256), in float64 256 (0.5339 ms against 0.5448 at 128).
template <class T>
inline constexpr int kBandedThreads = sizeof(T) == 8 ? 256 : 128;

/// L lanes per row, each loading UNROLL of its nonzeros before it uses any.
/// @tparam EVICT_FIRST the columns and values read with ld.global.cs (else ordinary loads)
template <int L, int UNROLL, bool EVICT_FIRST, class T>
__global__ void spmv_lanes_unrolled(const CsrView<T> matrix, const T* __restrict__ x, T* __restrict__ y) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = thread / L;
  const int lane = static_cast<int>(thread % L);
  const bool valid = row < matrix.rows;  // every lane reaches the shuffles (they name the full warp)
  const std::int32_t row_begin = valid ? matrix.offsets[row] : 0;
  const std::int32_t row_end = valid ? matrix.offsets[row + 1] : 0;
  T sum = T(0);
  for (std::int32_t j = row_begin + lane; j < row_end; j += L * UNROLL) {
    std::int32_t column[UNROLL];
    T value[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      const std::int32_t k = j + u * L;
      if constexpr (EVICT_FIRST) {
        column[u] = k < row_end ? __ldcs(matrix.columns + k) : 0;
        value[u] = k < row_end ? __ldcs(matrix.values + k) : T(0);
      } else {
        column[u] = k < row_end ? matrix.columns[k] : 0;
        value[u] = k < row_end ? matrix.values[k] : T(0);
      }
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) sum += value[u] * __ldg(x + column[u]);
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

/// One compact merge tile per block.
/// @tparam Features the tile's changes that are on (CompactTileFeatures: all of them but in a variant row)
template <int NT, int VT, class T, class Features>
__global__ void __launch_bounds__(NT)
    spmv_compact_tiles(const CsrView<T> matrix, const T* __restrict__ x, T* __restrict__ y,
                       const std::int64_t* __restrict__ partitions, Carry<T>* __restrict__ carries) {
  using Tile = CompactMergeSpmvTile<NT, VT, T, Features>;
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

/// The banded rows' kernels: a thread per short row, else the unrolled lanes.
/// @tparam Changes AllChanges, or a variant row's struct
template <class T, class Changes>
void launch_vector(const CsrView<T>& matrix, const T* x, T* y, int threads, cudaStream_t stream) {
  const double mean = static_cast<double>(matrix.nnz) / static_cast<double>(matrix.rows);
  if (mean < kShortRowMean) {
    spmv_short_rows<T><<<grid_of(ceil_div(matrix.rows, threads)), threads, 0, stream>>>(matrix, x, y);
    STEPWISE_CHECK_LAUNCH();
    return;
  }
  const int lanes = Changes::quarter_row_groups ? tuned_vector_lanes_for(mean) : vector_lanes_for(mean);
  dispatch(lanes, Lanes{}, "lanes per row", [&](auto lanes_per_row) {
    constexpr int kL = decltype(lanes_per_row)::value;
    const std::size_t total = static_cast<std::size_t>(matrix.rows) * kL;
    spmv_lanes_unrolled<kL, Changes::loads_in_flight, Changes::evict_first, T>
        <<<grid_of(ceil_div(total, threads)), threads, 0, stream>>>(matrix, x, y);
    STEPWISE_CHECK_LAUNCH();
  });
}

/// Picks the kernel by the matrix and enqueues it.
/// @tparam Changes AllChanges, or a variant row's struct
template <class T, class Changes = AllChanges>
void launch(const CsrView<T>& matrix, const T* x, T* y, SpmvScratch& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  require_threads(shape.threads);
  if (shape.blocks_per_sm < 1) throw std::invalid_argument("blocks per SM must be at least 1");
  if (matrix.rows == 0) return;
  const double mean = static_cast<double>(matrix.nnz) / static_cast<double>(matrix.rows);
  if constexpr (Changes::banded_kernels) {
    if (matrix.banded && rows_are_regular(matrix.longest_row, mean)) {
      launch_vector<T, Changes>(matrix, x, y, kBandedThreads<T>, stream);
      return;
    }
  }
  dispatch_tile(shape, typename Changes::Threads{}, typename Changes::Values{}, [&](auto nt, auto vt) {
    constexpr int kNT = decltype(nt)::value;
    constexpr int kVT = decltype(vt)::value;
    using Features = typename Changes::Tile;
    if constexpr (kCompactTileFits<kNT, kVT, T, Features>) {
      constexpr auto kKernel = spmv_compact_tiles<kNT, kVT, T, Features>;
      if constexpr (Changes::carveout)
        carve_shared_for<kKernel>(shape.blocks_per_sm,
                                  sizeof(typename CompactMergeSpmvTile<kNT, kVT, T, Features>::Storage));
      if constexpr (Changes::kept_partitions) {
        constexpr int kTile = kNT * kVT;
        const std::size_t total = static_cast<std::size_t>(matrix.nnz) + static_cast<std::size_t>(matrix.rows);
        const SpmvScratch::KeptPartitions kept = workspace.kept_partitions(kTile, merge_partition_count(total, kTile));
        if (!kept.searched) search_tile_boundaries(matrix, kTile, kept.data, stream);
        launch_merge_tiles<kNT, kVT, Changes::warp_carries>(kKernel, matrix, x, y, kept.data, workspace, stream);
      } else {
        launch_merge_spmv<kNT, kVT, Changes::warp_carries>(kKernel, matrix, x, y, workspace, stream);
      }
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
      "merge tile whose stream loads are whole lines that bypass L1, its tile boundaries searched once, its carries "
      "summed per warp";
  stage.shape = {kThreads, kItems<T>, kBlocksPerSm};
  stage.sweep = shape_grid(AllChanges::Threads::values(), AllChanges::Values::values(), {4, 6, 8});
  stage.traits.keeps_partitions = true;
  stage.traits.model = StageModel::tuned;
  stage.traits.deterministic = false;  // the merge path adds its tiles' carries to y atomically
  stage.launch = launch<T>;
  SpmvStage<T> searched_every_call =
      variant_of(stage, "kept partitions", "the merge tile's boundaries searched on every call, as stage 4",
                 launch<T, WithoutKeptPartitions<T>>);
  searched_every_call.traits.keeps_partitions = false;
  // Each change undone alone. The first four change banded regular matrices only (the stencils),
  // the rest the merge tile only, which every other matrix takes.
  stage.variants = {
      variant_of(stage, "banded kernels", "banded regular rows take the compact merge tile too",
                 launch<T, WithoutBandedKernels<T>>),
      variant_of(stage, "4 loads in flight",
                 "each lane of the vector kernel takes one nonzero per loop step, as stage 3's loop (the compiler "
                 "unrolls it itself)",
                 launch<T, WithoutLoadsInFlight<T>>),
      variant_of(stage, "evict-first loads", "the vector kernel's columns and values read with ordinary loads",
                 launch<T, WithoutEvictFirst<T>>),
      variant_of(stage, "quarter-row groups",
                 "the vector kernel's group per row as stage 3's, the mean row rounded up to a power of two",
                 launch<T, WithoutQuarterRowGroups<T>>),
      variant_of(stage, "whole-line loads",
                 "the merge tile's stream loads start at its first nonzero, a warp's load straddling two lines",
                 launch<T, WithoutLineAlignedLoads<T>>),
      variant_of(stage, "L1 bypass", "the merge tile's stream loads are ordinary loads, allocated in L1 and L2",
                 launch<T, WithoutL1Bypass<T>>),
      variant_of(stage, "compact storage",
                 "the merge tile's shared memory in stage 4's three arrays, 12 bytes an item (20 in float64)",
                 launch<T, WithoutCompactStorage<T>>),
      variant_of(stage, "segmented scan", "a row split between threads summed with shared-memory atomics, as stage 4",
                 launch<T, WithoutSegmentedScan<T>>),
      searched_every_call,
      variant_of(stage, "warp-summed carries", "every tile's carry added to y with an atomic of its own, as stage 4",
                 launch<T, WithoutWarpCarries<T>>),
      variant_of(stage, "shared carveout", "no carveout set for the merge tile: the driver splits L1 and shared memory",
                 launch<T, WithoutCarveout<T>>),
      variant_of(stage, "tile " + std::to_string(kThreads) + "x" + std::to_string(kItems<T>),
                 "the merge tile at stage 4's 128 x 7", launch<T, WithMergeTile>),
  };
  stage.variants.back().shape = {kMergeThreads, kMergeItems, kBlocksPerSm};
  return stage;
}

SPMV_STAGE_ROWS(spmv_tuned);

}  // namespace stepwise::spmv
