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
//   8-byte keys, at 2^28 elements. Smaller merges ran faster with smaller tiles in the same
//   sweep, so, as CUB keeps a tuning per problem, the stage keeps the sweep's best tile at each
//   smaller size it measured (shapes_by_n, shown by --list): for 4-byte keys 128 x 11 up to 2^22
//   elements, 128 x 15 up to 2^24 and 512 x 15 up to 2^26; for 8-byte keys 128 x 11 up to 2^24.
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
//
// Variant rows (--variants; `4 - change` is this stage with that one change undone): which of
// its changes pays, each measured against the stage as it stands. `by-bits partitions` runs the
// partition kernel's midpoint search; `16-byte loads` loads both ranges as stage 3 does, one
// element per strided load (values too, still before the barrier); `values with keys` gathers
// each output's value from global memory right after the merge, as stage 3 does, and stages
// the values' transpose in the keys' shared memory (a merge of keys has no values: that row
// runs this stage's own kernel); `warp-level stores` stores keys and values through stage 3's
// block-wide transpose (device/tile.cuh's store_thread_order, with its two barriers) and 4-byte
// (8-byte) strided stores; `swept tile` runs stage 3's tile, 128 x 15 (128 x 7 for 8-byte
// keys). The changes are independent: each undoes alone.
#include <type_traits>

#include "algorithm/merge_path.hpp"
#include "device/merge_tile.cuh"
#include "device/tile.cuh"
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
  /// The sweep's best tile at smaller sizes (H100, keys, 2^22, 2^24 and 2^26 elements).
  static std::vector<SizedShape> by_size() {
    return {{1ull << 22, {128, 11}}, {1ull << 24, {128, 15}}, {1ull << 26, {512, 15}}};
  }
};
template <>
struct CompiledTiles<std::int64_t> {
  using Threads = IntList<128, 256, 512>;
  using Values = IntList<7, 11, 15>;
  static constexpr LaunchShape kDefault{512, 11};
  static std::vector<SizedShape> by_size() { return {{1ull << 24, {128, 11}}}; }
};

/// The tile of stage 3 (03_two_level.cu), which the swept tile replaced: moderngpu's 128 x 15;
/// 128 x 7 for 8-byte keys.
template <class K>
constexpr LaunchShape kTwoLevelShape = sizeof(K) == 4 ? LaunchShape{128, 15} : LaunchShape{128, 7};

/// The tile kernel's changes over stage 3, each on (true) in this stage: the kernel is compiled
/// once per combination a row needs (TileFeatures<> for the stage; one turned off per variant).
/// @tparam kVectorLoads both ranges move to shared memory as 16-byte vectors (else stage 3's
///   strided loads of one element each)
/// @tparam kValuesWithKeys pairs: values are loaded with their keys before the barrier and picked
///   from shared memory (else gathered from global memory after the merge)
/// @tparam kWarpStores the tile leaves through the warp-level transpose and 16-byte stores (else
///   stage 3's block-wide transpose and strided stores)
template <bool kVectorLoads = true, bool kValuesWithKeys = true, bool kWarpStores = true>
struct TileFeatures {
  static constexpr bool vector_loads = kVectorLoads;
  static constexpr bool values_with_keys = kValuesWithKeys;
  static constexpr bool warp_stores = kWarpStores;
};

/// The features a merge of keys reads: values_with_keys has no values to act on, so a row that
/// differs from the stage only there runs the stage's own keys kernel.
template <class Tile>
using KeysTileFeatures = TileFeatures<Tile::vector_loads, true, Tile::warp_stores>;

/// Stage 4 as it stands: every change on. Each variant row's struct turns one off.
struct AllChanges {
  using Tile = TileFeatures<>;  ///< the tile kernel's changes
  /// How the partition kernel searches its diagonals.
  static constexpr PartitionSearch partition_search = PartitionSearch::by_bits;
  /// The sweep's tile (CompiledTiles::kDefault) rather than stage 3's (kTwoLevelShape).
  static constexpr bool swept_tile = true;
  /// Every tile of the sweep compiled; a variant row compiles its own shape only.
  static constexpr bool whole_sweep = true;
};
/// A variant row runs at one tile only, and compiles no other.
struct Variant : AllChanges {
  static constexpr bool whole_sweep = false;
};
/// `4 - by-bits partitions`: stage 3's midpoint search in the partition kernel.
struct WithoutByBitsPartitions : Variant {
  static constexpr PartitionSearch partition_search = PartitionSearch::midpoint;
};
/// `4 - 16-byte loads`: stage 3's strided loads, one element each.
struct WithoutVectorLoads : Variant {
  using Tile = TileFeatures<false, true, true>;
};
/// `4 - values with keys`: values gathered from global memory after the merge.
struct WithoutValuesWithKeys : Variant {
  using Tile = TileFeatures<true, false, true>;
};
/// `4 - warp-level stores`: stage 3's block-wide transpose and strided stores.
struct WithoutWarpStores : Variant {
  using Tile = TileFeatures<true, true, false>;
};
/// `4 - swept tile`: stage 3's tile.
struct WithTwoLevelTile : Variant {
  static constexpr bool swept_tile = false;
};

/// The tiles @p Changes compiles: the whole sweep (the stage), or the one tile its row runs at.
template <class K, class Changes>
struct TilesOf {
  static constexpr LaunchShape kShape = Changes::swept_tile ? CompiledTiles<K>::kDefault : kTwoLevelShape<K>;
  using Threads = std::conditional_t<Changes::whole_sweep, typename CompiledTiles<K>::Threads, IntList<kShape.threads>>;
  using Values = std::conditional_t<Changes::whole_sweep, typename CompiledTiles<K>::Values, IntList<kShape.items>>;
};

/// Stage 3's loads of a tile's two ranges (load_ranges_strided), split as VectorizedRangeLoad is,
/// so that a second range (the values) is loaded before the first is stored: VT strided loads
/// of one element per thread, A's range at shared[0, a_count) and B's right after it.
template <int NT, int VT, class T>
struct StridedRangeLoad {
  T data[VT];
  int a_count = 0;
  int count = 0;

  /// Issues the loads of A[a_begin, +a_count) of @p a and of B[b_begin, +b_count) of @p b (the
  /// array sizes are VectorizedRangeLoad's arguments, unused here: no load crosses a range's end).
  __device__ __forceinline__ void load(const T* a, std::int64_t, std::int64_t a_begin, int a_count_, const T* b,
                                       std::int64_t, std::int64_t b_begin, int b_count) {
    a_count = a_count_;
    count = a_count_ + b_count;
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot < count) data[i] = slot < a_count ? a[a_begin + slot] : b[b_begin + (slot - a_count)];
    }
  }

  /// Writes the loaded elements to @p shared and returns where the two ranges start there. The
  /// caller synchronizes before reading @p shared.
  __device__ __forceinline__ SharedRanges store(T* shared) const {
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot < count) shared[slot] = data[i];
    }
    return {0, a_count};
  }
};

/// The dynamic shared memory of a tile: the keys' ranges, then (pairs, values loaded with their
/// keys: @p kValues) the values' ranges; the same bytes later hold the outputs on their way out.
template <int NT, int VT, class K, bool kValues>
struct TunedLayout {
  static constexpr int kTile = NT * VT;
  using KeyLoad = VectorizedRangeLoad<NT, VT, K>;
  using ValueLoad = VectorizedRangeLoad<NT, VT, Value>;
  static constexpr std::size_t kKeyBytes = ceil_div((kTile + KeyLoad::kPad) * sizeof(K), 16) * 16;
  static constexpr std::size_t kValueBytes = kValues ? (kTile + ValueLoad::kPad) * sizeof(Value) : 0;
  static constexpr std::size_t kBytes = kKeyBytes + kValueBytes;
  static_assert(kTile >= kMinTileItems, "the workspace holds the boundaries of tiles of kMinTileItems or more");
  static_assert(VT % 2 == 1, "odd VT: conflict-free thread-order transposes");
};

/// One tile per block: the tile's two ranges to shared memory, each thread's search and serial
/// merge there, the tile back to global memory.
/// @tparam Tile the changes over stage 3 that are on (TileFeatures<>: all of them but in a variant row)
template <int NT, int VT, class K, bool kPairs, class Tile>
__global__ void __launch_bounds__(NT)
    merge_tiles_tuned(const K* __restrict__ a_keys, const Value* __restrict__ a_values, const K* __restrict__ b_keys,
                      const Value* __restrict__ b_values, K* __restrict__ out_keys, Value* __restrict__ out_values,
                      std::int64_t a_count, std::int64_t b_count, const std::int64_t* __restrict__ partitions) {
  constexpr bool kValuesInShared = kPairs && Tile::values_with_keys;
  using Layout = TunedLayout<NT, VT, K, kValuesInShared>;
  using KeyLoad = std::conditional_t<Tile::vector_loads, typename Layout::KeyLoad, StridedRangeLoad<NT, VT, K>>;
  using ValueLoad = std::conditional_t<Tile::vector_loads, typename Layout::ValueLoad, StridedRangeLoad<NT, VT, Value>>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  K* keys = reinterpret_cast<K*>(shared_bytes);
  // Values gathered after the merge pass through the keys' shared memory on their way out, as in stage 3.
  Value* values = reinterpret_cast<Value*>(shared_bytes + (kValuesInShared ? Layout::kKeyBytes : 0));
  const MergeRange<std::int64_t> range = this_tile_range(a_count, b_count, Layout::kTile, partitions);
  const int a_n = static_cast<int>(range.a_count());
  const int b_n = static_cast<int>(range.b_count());
  const int count = a_n + b_n;

  KeyLoad key_load;
  key_load.load(a_keys, a_count, range.a_begin, a_n, b_keys, b_count, range.b_begin, b_n);
  ValueLoad value_load;
  if constexpr (kValuesInShared)
    value_load.load(a_values, a_count, range.a_begin, a_n, b_values, b_count, range.b_begin, b_n);
  const SharedRanges key_at = key_load.store(keys);
  SharedRanges value_at;
  if constexpr (kValuesInShared) value_at = value_load.store(values);
  __syncthreads();

  const K* a = keys + key_at.a_offset;
  const K* b = keys + key_at.b_offset;
  const int diagonal = min(VT * static_cast<int>(threadIdx.x), count);
  const int path = merge_path(a, a_n, b, b_n, diagonal, Less{});
  K x[VT] = {};
  Value v[VT] = {};
  int from[VT] = {};  // values gathered after the merge: A's index, or a_n + B's index
  serial_merge<VT>(a, path, a_n, b, diagonal - path, b_n, Less{},
                   [&](int i, bool from_a, int a_index, int b_index, K key) {
                     x[i] = key;
                     if constexpr (kValuesInShared)
                       v[i] = values[from_a ? value_at.a_offset + a_index : value_at.b_offset + b_index];
                     else if constexpr (kPairs)
                       from[i] = from_a ? a_index : a_n + b_index;
                   });
  if constexpr (kPairs && !kValuesInShared) {
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (diagonal + i < count)
        v[i] = from[i] < a_n ? a_values[range.a_begin + from[i]] : b_values[range.b_begin + (from[i] - a_n)];
  }
  __syncthreads();

  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * Layout::kTile;
  if constexpr (Tile::warp_stores) {
    store_thread_order_by_warp_vectorized<NT, VT>(out_keys + base, count, x, keys);
    // Values staged in the keys' memory: with 8-byte keys a warp's value slice is not its key
    // slice, so every warp's keys leave before any warp's values are staged.
    if constexpr (kPairs && !kValuesInShared && sizeof(K) != sizeof(Value)) __syncthreads();
    if constexpr (kPairs) store_thread_order_by_warp_vectorized<NT, VT>(out_values + base, count, v, values);
  } else {
    store_thread_order<NT, VT>(out_keys, base, count, x, keys);
    if constexpr (kPairs) store_thread_order<NT, VT>(out_values, base, count, v, values);
  }
}

template <int NT, int VT, class K, bool kPairs, class Tile>
void launch_tiles(const K* a_keys, const Value* a_values, const K* b_keys, const Value* b_values, K* out_keys,
                  Value* out_values, std::int64_t a_count, std::int64_t b_count, const std::int64_t* partitions,
                  cudaStream_t stream) {
  using Layout = TunedLayout<NT, VT, K, kPairs && Tile::values_with_keys>;
  constexpr auto kernel = merge_tiles_tuned<NT, VT, K, kPairs, Tile>;
  allow_dynamic_shared<kernel>(Layout::kBytes);
  const std::size_t total = static_cast<std::size_t>(a_count + b_count);
  kernel<<<grid_of(ceil_div(total, Layout::kTile)), NT, Layout::kBytes, stream>>>(
      a_keys, a_values, b_keys, b_values, out_keys, out_values, a_count, b_count, partitions);
  STEPWISE_CHECK_LAUNCH();
}

/// The partition kernel, then one block per tile.
/// @tparam Changes AllChanges, or a variant row's struct
template <class K, class Changes = AllChanges>
void launch(const K* a_keys, const Value* a_values, const K* b_keys, const Value* b_values, K* out_keys,
            Value* out_values, std::size_t a_count, std::size_t b_count, Workspace& workspace, const LaunchShape& shape,
            cudaStream_t stream) {
  const bool pairs = merges_pairs(a_values, b_values, out_values, a_count, b_count);
  for (const void* pointer :
       {static_cast<const void*>(a_keys), static_cast<const void*>(b_keys), static_cast<const void*>(out_keys),
        static_cast<const void*>(a_values), static_cast<const void*>(b_values), static_cast<const void*>(out_values)})
    require_aligned(pointer, 16);
  dispatch_tile(
      shape, typename TilesOf<K, Changes>::Threads{}, typename TilesOf<K, Changes>::Values{},
      [&](auto nt, auto vt) {
        constexpr int kNT = decltype(nt)::value;
        constexpr int kVT = decltype(vt)::value;
        const std::size_t total = a_count + b_count;
        if (total == 0) return;
        std::int64_t* partitions = workspace.carve<std::int64_t>(0, merge_partition_count(total, kNT * kVT));
        const auto na = static_cast<std::int64_t>(a_count);
        const auto nb = static_cast<std::int64_t>(b_count);
        launch_merge_path_partitions<Bounds::lower, Changes::partition_search>(a_keys, na, b_keys, nb, kNT * kVT,
                                                                               partitions, Less{}, stream);
        if (pairs)
          launch_tiles<kNT, kVT, K, true, typename Changes::Tile>(a_keys, a_values, b_keys, b_values, out_keys,
                                                                  out_values, na, nb, partitions, stream);
        else
          launch_tiles<kNT, kVT, K, false, KeysTileFeatures<typename Changes::Tile>>(
              a_keys, nullptr, b_keys, nullptr, out_keys, nullptr, na, nb, partitions, stream);
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
  stage.shapes_by_n = CompiledTiles<K>::by_size();
  stage.traits.work = Work::tiled;
  stage.traits.note = "16-byte loads and stores, warp-level store transpose";
  stage.traits.aligned_bytes = 16;
  stage.launch = launch<K>;
  // Each change undone alone.
  stage.variants = {
      variant_of(stage, "by-bits partitions", "the partition kernel searches by midpoints, as in stage 3",
                 launch<K, WithoutByBitsPartitions>),
      variant_of(stage, "16-byte loads", "stage 3's strided loads of both ranges, one element each",
                 launch<K, WithoutVectorLoads>),
      variant_of(stage, "values with keys",
                 "pairs: values gathered from global memory after the merge, as in stage 3 (keys: stage 4's kernel)",
                 launch<K, WithoutValuesWithKeys>),
      variant_of(stage, "warp-level stores", "stage 3's block-wide transpose and strided stores",
                 launch<K, WithoutWarpStores>),
      variant_of(stage, "swept tile", "stage 3's tile, 128 x 15 (128 x 7 for 8-byte keys)",
                 launch<K, WithTwoLevelTile>),
  };
  stage.variants.back().shape = kTwoLevelShape<K>;
  return stage;
}

MERGE_STAGE_ROWS(merge_tuned);

}  // namespace stepwise::merge
