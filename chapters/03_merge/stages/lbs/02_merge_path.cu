// Load-balancing search stage 2, the merge-path version: O(items + objects).
//
// Changed from stage 1: the item indices 0, 1, 2, ... are sorted, so finding every item's
// object is a sorted search of the items in the offsets (upper bound: an object's start goes
// before the item equal to it), and that is a merge, split with Merge Path. The items are a
// counting sequence: never stored, never loaded. A partition kernel cuts the merge of the items
// with the offsets every NV = NT x VT steps; each tile loads its offsets (and the one before,
// for the object its first items belong to) into shared memory, each thread searches its
// diagonal there and runs VT steps, writing each item's object into shared memory
// (common/device/merge_tile.cuh's LoadBalanceTile); the tile's items then leave with coalesced
// stores of object and rank. A tile covers NV items and objects together, so a run of empty
// objects costs steps but never idles a thread: the load is balanced whatever the counts are.
// DRAM traffic: the offsets once (4 bytes per object) and the two outputs (8 bytes per item).
#include "algorithm/merge_path.hpp"
#include "device/merge_tile.cuh"
#include "host/dispatch.hpp"
#include "kernels/merge_path_partitions.cuh"
#include "merge.cuh"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

using Threads = IntList<128, 256>;
using Values = IntList<7, 11, 15, 23>;

template <int NT, int VT>
__global__ void __launch_bounds__(NT)
    expand_tiles(const std::int32_t* __restrict__ offsets, std::int32_t* __restrict__ objects,
                 std::int32_t* __restrict__ ranks, std::int64_t object_count, std::int64_t item_count,
                 const std::int64_t* __restrict__ partitions) {
  using Tile = LoadBalanceTile<NT, VT>;
  static_assert(Tile::kTile >= kMinTileItems, "the workspace holds the boundaries of tiles of kMinTileItems or more");
  __shared__ typename Tile::Storage storage;
  const MergeRange<std::int64_t> range = Tile::run(offsets, object_count, item_count, partitions, storage);
  const int a_count = static_cast<int>(range.a_count());
  const auto first_object = static_cast<std::int32_t>(range.b_begin - 1);
  const auto first_item = static_cast<std::int32_t>(range.a_begin);
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const int j = tile::strided_slot(i, threadIdx.x, NT);
    if (j < a_count) {
      const int local = storage.objects[j];
      objects[range.a_begin + j] = first_object + local;
      ranks[range.a_begin + j] = first_item + j - storage.offsets[local];
    }
  }
}

void launch(const std::int32_t* offsets, std::int32_t* objects, std::int32_t* ranks, std::size_t object_count,
            std::size_t item_count, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_indexed(object_count, "the number of objects");
  require_indexed(item_count, "the number of items");
  dispatch_tile(
      shape, Threads{}, Values{},
      [&](auto nt, auto vt) {
        constexpr int kNT = decltype(nt)::value;
        constexpr int kVT = decltype(vt)::value;
        constexpr int kTile = kNT * kVT;
        if (item_count == 0) return;
        if (object_count == 0) throw std::invalid_argument("items need at least one object");
        const std::size_t total = item_count + object_count;
        std::int64_t* partitions = workspace.carve<std::int64_t>(0, merge_partition_count(total, kTile));
        const auto no = static_cast<std::int64_t>(object_count);
        const auto ni = static_cast<std::int64_t>(item_count);
        launch_merge_path_partitions<Bounds::upper>(CountingIterator<std::int64_t>{0}, ni, offsets, no, kTile,
                                                    partitions, Less{}, stream);
        expand_tiles<kNT, kVT>
            <<<grid_of(ceil_div(total, kTile)), kNT, 0, stream>>>(offsets, objects, ranks, no, ni, partitions);
        STEPWISE_CHECK_LAUNCH();
      },
      "threads per block", "values per thread");
}

}  // namespace

LbsStage lbs_merge_path() {
  LbsStage stage;
  stage.name = "merge-path";
  stage.lesson = "merge the item indices (never stored) with the offsets in Merge Path tiles: O(items + objects)";
  stage.shape = {256, 23};
  stage.sweep = tile_grid(Threads{}, Values{});
  stage.traits.work = Work::tiled;
  stage.traits.note = "the items are a counting sequence: only the offsets are loaded";
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::merge
