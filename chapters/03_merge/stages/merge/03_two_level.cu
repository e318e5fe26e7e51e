// Stage 3, two-level Merge Path (Baxter's moderngpu merge).
//
// Changed from stage 2: the searches and the merges move on chip, and the memory accesses
// become coalesced. First a partition kernel runs one Merge Path search in global memory per
// tile of NV = NT x VT outputs (n / NV searches instead of stage 2's n / VT). Then each block
// takes one tile: its A range and B range (together exactly NV keys) are loaded with strided,
// coalesced loads into shared memory; every thread searches its own diagonal (VT x thread)
// there, in a few shared-memory steps, and merges its VT outputs from shared memory into
// registers; the tile goes back to global memory through the strided <-> thread-order transpose
// of chapter 02 (common/device/tile.cuh), coalesced again. VT is odd (15), so the thread-order side of
// that transpose hits every bank once per warp per step, as chapter 02 measured. Values follow
// their keys: each thread gathers the values of its VT outputs by the indices its merge took
// and stores them through the same transpose. Every key is read once and written once from
// DRAM: a copy's traffic, plus n / NV searches.
#include "algorithm/merge_path.hpp"
#include "device/merge_tile.cuh"
#include "device/tile.cuh"
#include "kernels/merge_path_partitions.cuh"
#include "merge.cuh"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

/// The tile: moderngpu's merge tile for 4-byte keys (128 x 15); half the values for 8-byte keys.
template <class K>
constexpr LaunchShape kShape = sizeof(K) == 4 ? LaunchShape{128, 15} : LaunchShape{128, 7};

template <int NT, int VT, class K>
union TwoLevelStorage {
  K keys[NT * VT];
  Value values[NT * VT];
};

template <int NT, int VT, class K, bool kPairs>
__global__ void __launch_bounds__(NT)
    merge_tiles(const K* __restrict__ a_keys, const Value* __restrict__ a_values, const K* __restrict__ b_keys,
                const Value* __restrict__ b_values, K* __restrict__ out_keys, Value* __restrict__ out_values,
                std::int64_t a_count, std::int64_t b_count, const std::int64_t* __restrict__ partitions) {
  constexpr int kTile = NT * VT;
  static_assert(kTile >= kMinTileItems, "the workspace holds the boundaries of tiles of kMinTileItems or more");
  __shared__ TwoLevelStorage<NT, VT, K> storage;
  const MergeRange<std::int64_t> range = this_tile_range(a_count, b_count, kTile, partitions);
  const int a_n = static_cast<int>(range.a_count());
  const int b_n = static_cast<int>(range.b_count());
  const int count = a_n + b_n;
  load_ranges_strided<NT, VT>(a_keys + range.a_begin, a_n, b_keys + range.b_begin, b_n, storage.keys);
  __syncthreads();
  const int diagonal = min(VT * static_cast<int>(threadIdx.x), count);
  const int path = merge_path(storage.keys, a_n, storage.keys + a_n, b_n, diagonal, Less{});
  K x[VT] = {};
  int from[VT] = {};  // where output i came from: A's index, or a_n + B's index
  serial_merge<VT>(storage.keys, path, a_n, storage.keys + a_n, diagonal - path, b_n, Less{},
                   [&](int i, bool from_a, int a_index, int b_index, K key) {
                     x[i] = key;
                     from[i] = from_a ? a_index : a_n + b_index;
                   });
  __syncthreads();
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTile;
  store_thread_order<NT, VT>(out_keys, base, count, x, storage.keys);
  if constexpr (kPairs) {
    Value v[VT] = {};
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (diagonal + i < count)
        v[i] = from[i] < a_n ? a_values[range.a_begin + from[i]] : b_values[range.b_begin + (from[i] - a_n)];
    store_thread_order<NT, VT>(out_values, base, count, v, storage.values);
  }
}

template <class K>
void launch(const K* a_keys, const Value* a_values, const K* b_keys, const Value* b_values, K* out_keys,
            Value* out_values, std::size_t a_count, std::size_t b_count, Workspace& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  constexpr int kNT = kShape<K>.threads;
  constexpr int kVT = kShape<K>.items;
  constexpr int kTile = kNT * kVT;
  require_shape(shape, kShape<K>);
  const bool pairs = merges_pairs(a_values, b_values, out_values, a_count, b_count);
  const std::size_t total = a_count + b_count;
  if (total == 0) return;
  std::int64_t* partitions = workspace.carve<std::int64_t>(0, merge_partition_count(total, kTile));
  const auto na = static_cast<std::int64_t>(a_count);
  const auto nb = static_cast<std::int64_t>(b_count);
  launch_merge_path_partitions<Bounds::lower, PartitionSearch::midpoint>(a_keys, na, b_keys, nb, kTile, partitions,
                                                                         Less{}, stream);
  const unsigned grid = grid_of(ceil_div(total, kTile));
  if (pairs)
    merge_tiles<kNT, kVT, K, true>
        <<<grid, kNT, 0, stream>>>(a_keys, a_values, b_keys, b_values, out_keys, out_values, na, nb, partitions);
  else
    merge_tiles<kNT, kVT, K, false>
        <<<grid, kNT, 0, stream>>>(a_keys, nullptr, b_keys, nullptr, out_keys, nullptr, na, nb, partitions);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class K>
MergeStage<K> merge_two_level() {
  MergeStage<K> stage;
  stage.name = "two-level";
  stage.lesson = "a partition kernel splits the path per tile; each tile merges in shared memory, odd-VT transposes";
  stage.shape = kShape<K>;
  stage.traits.work = Work::tiled;
  stage.traits.note = std::to_string(sizeof(K)) + "-byte strided loads, block-wide transposes";
  stage.launch = launch<K>;
  return stage;
}

MERGE_STAGE_ROWS(merge_two_level);

}  // namespace stepwise::merge
