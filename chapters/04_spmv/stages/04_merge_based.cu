// Stage 4, merge-based: Merrill and Garland's merge-based SpMV, equal work per thread whatever
// the row lengths.
//
// Changed from stage 3: the unit of work is no longer a row. The row ends and the nonzero
// indices are merged (spmv.cuh explains how that merge is SpMV), and Merge Path cuts the merge
// into tiles of NT x VT items and every tile into VT items per thread: the same decomposition as
// chapter 03's load-balancing search, from common/algorithm/merge_path.hpp and merge_tile.cuh. A tile
// reads its nonzeros' columns and values with strided, coalesced loads, gathers x, and keeps the
// products in shared memory; each thread then walks its VT items there. A row longer than a
// tile is shared by many threads and tiles (their partial sums are added in shared memory and by
// a small fix-up kernel), a run of empty rows costs one item per row, and no thread ever waits
// for another's long row. The price is fixed: a partition kernel (one search per tile), the
// products' round trip through shared memory, and the carries.
#include <stdexcept>

#include "host/dispatch.hpp"
#include "spmv.cuh"
#include "spmv.hpp"

namespace stepwise::spmv {
namespace {

using Threads = IntList<128, 256>;
using Values = IntList<5, 7, 9, 11>;

template <int NT, int VT, class T>
__global__ void __launch_bounds__(NT)
    spmv_merge_tiles(const CsrView<T> matrix, const T* __restrict__ x, T* __restrict__ y,
                     const std::int64_t* __restrict__ partitions, Carry<T>* __restrict__ carries) {
  using Tile = MergeSpmvTile<NT, VT, T>;
  __shared__ typename Tile::Storage storage;
  Tile::run(matrix, x, y, partitions, carries, storage);
}

template <class T>
void launch(const CsrView<T>& matrix, const T* x, T* y, SpmvScratch& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  dispatch_tile(shape, Threads{}, Values{}, [&](auto nt, auto vt) {
    constexpr int kNT = decltype(nt)::value;
    constexpr int kVT = decltype(vt)::value;
    if constexpr (kMergeTileFits<kNT, kVT, T>)
      launch_merge_spmv<kNT, kVT>(spmv_merge_tiles<kNT, kVT, T>, matrix, x, y, workspace, stream);
    else
      throw std::invalid_argument("a tile of " + describe(shape) + " does not fit 48 KiB of shared memory");
  });
}

}  // namespace

template <class T>
SpmvStage<T> spmv_merge_based() {
  SpmvStage<T> stage;
  stage.name = "merge-based";
  stage.lesson = "Merge Path over row ends and nonzeros: every thread gets VT items whatever the row lengths";
  stage.shape = {128, 7};
  stage.sweep = merge_tile_shapes<T>(Threads{}, Values{});
  stage.traits.model = StageModel::merge;
  stage.traits.deterministic = false;  // shared-memory atomics in a tile, atomic carries across tiles
  stage.launch = launch<T>;
  return stage;
}

SPMV_STAGE_ROWS(spmv_merge_based);

}  // namespace stepwise::spmv
