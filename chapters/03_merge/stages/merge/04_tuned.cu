// Stage 4, tuned: stage 3's algorithm with fewer instructions, misses and barriers per byte.
//
// Changed from stage 3, each measured in the README:
// - The partition kernel searches bit by bit (merge_path_by_bits): the same cross points, with
//   probes at power-of-two strides that neighbouring tile boundaries could share. Measured, they
//   share little (L2 hit rate 21.2 % against the midpoint search's 19.0 %): the partition kernel
//   is faster because the larger tile below needs six times fewer searches.
// - The tile shape comes from --sweep (NT x VT, odd VT only: the transposes stay conflict-free).
//   Larger tiles spread the per-tile costs (a partition search, two boundary reads, the thread's
//   search, the barriers) over more outputs; smaller ones keep more blocks per SM in different
//   phases. The H100 sweep picked 512 x 23 for 4-byte keys (keys and pairs), 512 x 11 for
//   8-byte keys.
// - The A and B ranges move to shared memory as 16-byte vectors (common/device/merge_tile.cuh's
//   VectorizedRangeLoad): a quarter of the load instructions of stage 3's 4-byte loads, the
//   same bytes in flight. A range that starts mid-vector keeps its offset in shared memory, so
//   every vector lands whole.
// - Key-value pairs load their values together with their keys, before the one barrier, so a
//   tile's loads are all in flight at once; each merge step then picks its value from shared
//   memory by the index it took (stage 3 gathered values from global memory after the merge).
// - The tile leaves through a warp-level transpose with 16-byte stores
//   (store_thread_order_by_warp_vectorized): __syncwarp instead of the block barriers of
//   stage 3's store, and 512 bytes per warp-wide store. Two block barriers per tile in all: one
//   after the loads, one after the merge.
// Every pointer must be 16-byte aligned (cudaMalloc's are); the launcher refuses others.
#include "algorithm/merge_path.hpp"
#include "device/merge_tile.cuh"
#include "host/dispatch.hpp"
#include "kernels/merge_path_partitions.cuh"
#include "merge.cuh"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

/// The tiles compiled in: the sweep for 4-byte keys; fewer values per thread for 8-byte ones.
template <class K>
struct CompiledTiles {
  using Threads = IntList<128, 256, 512>;
  using Values = IntList<11, 15, 19, 23>;
  static constexpr LaunchShape kDefault{512, 23};
};
template <>
struct CompiledTiles<std::int64_t> {
  using Threads = IntList<128, 256, 512>;
  using Values = IntList<7, 11, 15>;
  static constexpr LaunchShape kDefault{512, 11};
};

/// The dynamic shared memory of a tile: the keys' ranges, then (pairs) the values' ranges; the
/// same bytes later hold the outputs on their way to the warp-level stores.
template <int NT, int VT, class K, bool kPairs>
struct TunedLayout {
  static constexpr int kTile = NT * VT;
  using KeyLoad = VectorizedRangeLoad<NT, VT, K>;
  using ValueLoad = VectorizedRangeLoad<NT, VT, Value>;
  static constexpr std::size_t kKeyBytes = ceil_div((kTile + KeyLoad::kPad) * sizeof(K), 16) * 16;
  static constexpr std::size_t kValueBytes = kPairs ? (kTile + ValueLoad::kPad) * sizeof(Value) : 0;
  static constexpr std::size_t kBytes = kKeyBytes + kValueBytes;
  static_assert(kTile >= kMinTileItems, "the workspace holds the boundaries of tiles of kMinTileItems or more");
  static_assert(VT % 2 == 1, "odd VT: conflict-free thread-order transposes");
};

template <int NT, int VT, class K, bool kPairs>
__global__ void __launch_bounds__(NT)
    merge_tiles_tuned(const K* __restrict__ a_keys, const Value* __restrict__ a_values, const K* __restrict__ b_keys,
                      const Value* __restrict__ b_values, K* __restrict__ out_keys, Value* __restrict__ out_values,
                      std::int64_t a_count, std::int64_t b_count, const std::int64_t* __restrict__ partitions) {
  using Layout = TunedLayout<NT, VT, K, kPairs>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  K* keys = reinterpret_cast<K*>(shared_bytes);
  Value* values = reinterpret_cast<Value*>(shared_bytes + Layout::kKeyBytes);
  const MergeRange<std::int64_t> range = this_tile_range(a_count, b_count, Layout::kTile, partitions);
  const int a_n = static_cast<int>(range.a_count());
  const int b_n = static_cast<int>(range.b_count());
  const int count = a_n + b_n;

  typename Layout::KeyLoad key_load;
  key_load.load(a_keys, a_count, range.a_begin, a_n, b_keys, b_count, range.b_begin, b_n);
  typename Layout::ValueLoad value_load;
  if constexpr (kPairs) value_load.load(a_values, a_count, range.a_begin, a_n, b_values, b_count, range.b_begin, b_n);
  const SharedRanges key_at = key_load.store(keys);
  SharedRanges value_at;
  if constexpr (kPairs) value_at = value_load.store(values);
  __syncthreads();

  const K* a = keys + key_at.a_offset;
  const K* b = keys + key_at.b_offset;
  const int diagonal = min(VT * static_cast<int>(threadIdx.x), count);
  const int path = merge_path(a, a_n, b, b_n, diagonal, Less{});
  K x[VT] = {};
  Value v[VT] = {};
  serial_merge<VT>(a, path, a_n, b, diagonal - path, b_n, Less{},
                   [&](int i, bool from_a, int a_index, int b_index, K key) {
                     x[i] = key;
                     if constexpr (kPairs)
                       v[i] = values[from_a ? value_at.a_offset + a_index : value_at.b_offset + b_index];
                   });
  __syncthreads();

  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * Layout::kTile;
  store_thread_order_by_warp_vectorized<NT, VT>(out_keys + base, count, x, keys);
  if constexpr (kPairs) store_thread_order_by_warp_vectorized<NT, VT>(out_values + base, count, v, values);
}

template <int NT, int VT, class K, bool kPairs>
void launch_tiles(const K* a_keys, const Value* a_values, const K* b_keys, const Value* b_values, K* out_keys,
                  Value* out_values, std::int64_t a_count, std::int64_t b_count, const std::int64_t* partitions,
                  cudaStream_t stream) {
  using Layout = TunedLayout<NT, VT, K, kPairs>;
  constexpr auto kernel = merge_tiles_tuned<NT, VT, K, kPairs>;
  allow_dynamic_shared<kernel>(Layout::kBytes);
  const std::size_t total = static_cast<std::size_t>(a_count + b_count);
  kernel<<<grid_of(ceil_div(total, Layout::kTile)), NT, Layout::kBytes, stream>>>(
      a_keys, a_values, b_keys, b_values, out_keys, out_values, a_count, b_count, partitions);
  STEPWISE_CHECK_LAUNCH();
}

template <class K>
void launch(const K* a_keys, const Value* a_values, const K* b_keys, const Value* b_values, K* out_keys,
            Value* out_values, std::size_t a_count, std::size_t b_count, Workspace& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  const bool pairs = merges_pairs(a_values, b_values, out_values, a_count, b_count);
  for (const void* pointer :
       {static_cast<const void*>(a_keys), static_cast<const void*>(b_keys), static_cast<const void*>(out_keys),
        static_cast<const void*>(a_values), static_cast<const void*>(b_values), static_cast<const void*>(out_values)})
    require_aligned(pointer, 16);
  dispatch_tile(
      shape, typename CompiledTiles<K>::Threads{}, typename CompiledTiles<K>::Values{},
      [&](auto nt, auto vt) {
        constexpr int kNT = decltype(nt)::value;
        constexpr int kVT = decltype(vt)::value;
        const std::size_t total = a_count + b_count;
        if (total == 0) return;
        std::int64_t* partitions = workspace.carve<std::int64_t>(0, merge_partition_count(total, kNT * kVT));
        const auto na = static_cast<std::int64_t>(a_count);
        const auto nb = static_cast<std::int64_t>(b_count);
        launch_merge_path_partitions<Bounds::lower>(a_keys, na, b_keys, nb, kNT * kVT, partitions, Less{}, stream);
        if (pairs)
          launch_tiles<kNT, kVT, K, true>(a_keys, a_values, b_keys, b_values, out_keys, out_values, na, nb, partitions,
                                          stream);
        else
          launch_tiles<kNT, kVT, K, false>(a_keys, nullptr, b_keys, nullptr, out_keys, nullptr, na, nb, partitions,
                                           stream);
      },
      "threads per block", "values per thread");
}

}  // namespace

template <class K>
MergeStage<K> merge_tuned() {
  MergeStage<K> stage;
  stage.name = "tuned";
  stage.lesson = "the sweep's tile, 16-byte loads of both ranges (values with keys), warp-level 16-byte stores";
  stage.shape = CompiledTiles<K>::kDefault;
  stage.sweep = tile_grid(typename CompiledTiles<K>::Threads{}, typename CompiledTiles<K>::Values{});
  stage.traits.work = Work::tiled;
  stage.traits.note = "16-byte loads and stores, warp-level store transpose";
  stage.traits.aligned_bytes = 16;
  stage.launch = launch<K>;
  return stage;
}

MERGE_STAGE_ROWS(merge_tuned);

}  // namespace stepwise::merge
