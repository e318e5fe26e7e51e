// Search stage 2, the merge-path sorted search: O(|A| + |B|).
//
// Changed from stage 1: the needles are sorted, so searching them is a merge of the needles
// with the haystack that records the haystack cursor each time it takes a needle (the talk's
// CPUMerge with `dest[ai++] = bi`). It splits exactly like a merge (stage 3-4 of the merge
// table): a partition kernel cuts the merge path every NV = NT x VT steps, each tile loads its
// needles and its part of the haystack into shared memory with 16-byte coalesced loads, each
// thread searches its diagonal there and runs VT merge steps, writing the bound of every needle
// it takes into shared memory, and the tile's bounds leave with coalesced stores
// (common/device/merge_tile.cuh's SortedSearchTile). Every byte of needles and haystack is read once
// from DRAM: for 2^24 needles in 2^26 keys that is 320 MiB read and 64 MiB written, against
// stage 1's 2^24 searches of 27 steps each. The same tile with Bounds::upper gives upper bounds
// (ties take the haystack's key first).
#include "algorithm/merge_path.hpp"
#include "device/merge_tile.cuh"
#include "host/dispatch.hpp"
#include "kernels/merge_path_partitions.cuh"
#include "merge.cuh"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

/// The tiles compiled in: the sweep for 4-byte keys, a smaller one for 8-byte keys.
template <class K>
struct CompiledTiles {
  using Threads = IntList<128, 256>;
  using Values = IntList<11, 15, 23>;
  static constexpr LaunchShape kDefault{256, 15};
};
template <>
struct CompiledTiles<std::int64_t> {
  using Threads = IntList<128, 256>;
  using Values = IntList<7, 11>;
  static constexpr LaunchShape kDefault{256, 7};
};

template <int NT, int VT, Bounds bounds, class K>
__global__ void __launch_bounds__(NT)
    search_tiles(const K* __restrict__ needles, const K* __restrict__ haystack, std::int32_t* __restrict__ out,
                 std::int64_t needle_count, std::int64_t haystack_count, const std::int64_t* __restrict__ partitions) {
  using Tile = SortedSearchTile<NT, VT, bounds, K>;
  static_assert(Tile::kTile >= kMinTileItems, "the workspace holds the boundaries of tiles of kMinTileItems or more");
  __shared__ typename Tile::Storage storage;
  const MergeRange<std::int64_t> range =
      Tile::run(needles, needle_count, haystack, haystack_count, partitions, storage);
  const int a_count = static_cast<int>(range.a_count());
  for (int j = threadIdx.x; j < a_count; j += NT) out[range.a_begin + j] = storage.results[j];
}

template <int NT, int VT, Bounds bounds, class K>
void launch_tiles(const K* needles, const K* haystack, std::int32_t* out, std::int64_t needle_count,
                  std::int64_t haystack_count, std::int64_t* partitions, cudaStream_t stream) {
  constexpr int kTile = NT * VT;
  launch_merge_path_partitions<bounds>(needles, needle_count, haystack, haystack_count, kTile, partitions, Less{},
                                       stream);
  const std::size_t total = static_cast<std::size_t>(needle_count + haystack_count);
  search_tiles<NT, VT, bounds, K><<<grid_of(ceil_div(total, kTile)), NT, 0, stream>>>(
      needles, haystack, out, needle_count, haystack_count, partitions);
  STEPWISE_CHECK_LAUNCH();
}

template <class K>
void launch(const K* needles, const K* haystack, std::int32_t* out, std::size_t needle_count,
            std::size_t haystack_count, Bounds bounds, Workspace& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  require_indexed(haystack_count, "the haystack's length");
  require_aligned(needles, 16);
  require_aligned(haystack, 16);
  dispatch_tile(
      shape, typename CompiledTiles<K>::Threads{}, typename CompiledTiles<K>::Values{},
      [&](auto nt, auto vt) {
        constexpr int kNT = decltype(nt)::value;
        constexpr int kVT = decltype(vt)::value;
        if (needle_count == 0) return;
        const std::size_t total = needle_count + haystack_count;
        std::int64_t* partitions = workspace.carve<std::int64_t>(0, merge_partition_count(total, kNT * kVT));
        const auto nn = static_cast<std::int64_t>(needle_count);
        const auto nh = static_cast<std::int64_t>(haystack_count);
        if (bounds == Bounds::upper)
          launch_tiles<kNT, kVT, Bounds::upper>(needles, haystack, out, nn, nh, partitions, stream);
        else
          launch_tiles<kNT, kVT, Bounds::lower>(needles, haystack, out, nn, nh, partitions, stream);
      },
      "threads per block", "values per thread");
}

}  // namespace

template <class K>
SearchStage<K> search_merge_path() {
  SearchStage<K> stage;
  stage.name = "merge-path";
  stage.lesson = "sorted needles: merge them with the haystack in Merge Path tiles, O(A + B), coalesced";
  stage.shape = CompiledTiles<K>::kDefault;
  stage.sweep = tile_grid(typename CompiledTiles<K>::Threads{}, typename CompiledTiles<K>::Values{});
  stage.traits.work = Work::tiled;
  stage.traits.note = "reads every haystack key once";
  stage.traits.aligned_bytes = 16;
  stage.launch = launch<K>;
  return stage;
}

SEARCH_STAGE_ROWS(search_merge_path);

}  // namespace stepwise::merge
