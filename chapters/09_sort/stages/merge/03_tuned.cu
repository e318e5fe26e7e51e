// Merge stage 3, tuned: stage 2's algorithm with chapter 03's tuned merge tile in every pass.
//
// Changed from stage 2 (the block sort is stage 2's, at this stage's tile):
// - The merge passes move a tile's A and B ranges to shared memory as 16-byte vectors
//   (common/device/merge_tile.cuh's VectorizedRangeLoad): a quarter of the load instructions of
//   4-byte loads. A range that starts mid-vector keeps its offset in shared memory.
// - Pairs load their values together with their keys, before the one barrier, so all of a
//   tile's loads are in flight at once; each merge step picks its value from shared memory by
//   the index it took (stage 2 gathers values from global memory after the merge).
// - The tile leaves through the warp-level transpose with 16-byte stores
//   (store_thread_order_by_warp_vectorized): __syncwarp instead of block barriers.
// - The tile (block sort and passes alike) is a launch shape that --sweep varies: a larger tile
//   leaves fewer runs for the passes (a pass fewer per doubling) and spreads the per-tile costs,
//   a smaller one keeps more blocks per SM; every shape keeps a block's shared memory within
//   48 KiB. The default is stage 2's 128 x 15 until the sweep is measured.
// Every pointer must be 16-byte aligned (cudaMalloc's are); the launcher refuses others.
#include "algorithm/merge_path.hpp"
#include "algorithm/merge_sort.hpp"
#include "device/merge_tile.cuh"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "kernels/merge_sort_partitions.cuh"
#include "merge_sort.cuh"
#include "sort.hpp"

namespace stepwise::sort {
namespace {

/// The tiles compiled in (every key type: --analyze reads one first run per row).
using Threads = IntList<128, 256>;
using Values = IntList<7, 11, 15>;
constexpr LaunchShape kDefault{128, 15};

/// A pass tile's dynamic shared memory: the keys' ranges, then with pairs the values' ranges;
/// the same bytes later hold the outputs on their way out.
template <int NT, int VT, class K, bool kPairs>
struct PassLayout {
  static constexpr int kTile = NT * VT;
  using KeyLoad = VectorizedRangeLoad<NT, VT, K>;
  using ValueLoad = VectorizedRangeLoad<NT, VT, Value>;
  static constexpr std::size_t kKeyBytes = ceil_div((kTile + KeyLoad::kPad) * sizeof(K), 16) * 16;
  static constexpr std::size_t kValueBytes = kPairs ? (kTile + ValueLoad::kPad) * sizeof(Value) : 0;
  static constexpr std::size_t kBytes = kKeyBytes + kValueBytes;
  static_assert(kBytes <= 48 * 1024, "a tile's shared memory stays within the default 48 KiB");
};

/// One tile of a merge pass over runs of @p width: both ranges (keys, and values with pairs)
/// to shared memory as 16-byte vectors, each thread's search and serial merge there, the tile
/// back to the same positions through warp-level 16-byte stores.
template <int NT, int VT, class K, bool kPairs>
__global__ void __launch_bounds__(NT)
    merge_pass_tiles_tuned(const K* __restrict__ keys_in, const Value* __restrict__ values_in, K* __restrict__ keys_out,
                           Value* __restrict__ values_out, std::int64_t n, std::int64_t width,
                           const std::int64_t* __restrict__ partitions) {
  using Layout = PassLayout<NT, VT, K, kPairs>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  K* keys = reinterpret_cast<K*>(shared_bytes);
  Value* values = reinterpret_cast<Value*>(shared_bytes + Layout::kKeyBytes);
  const std::int64_t tile = blockIdx.x;
  const MergeRange<std::int64_t> range =
      merge_sort_tile_range<std::int64_t>(n, width, Layout::kTile, tile, partitions[tile], partitions[tile + 1]);
  const int a_n = static_cast<int>(range.a_count());
  const int b_n = static_cast<int>(range.b_count());
  const int count = a_n + b_n;

  typename Layout::KeyLoad key_load;
  key_load.load(keys_in, n, range.a_begin, a_n, keys_in, n, range.b_begin, b_n);
  typename Layout::ValueLoad value_load;
  if constexpr (kPairs) value_load.load(values_in, n, range.a_begin, a_n, values_in, n, range.b_begin, b_n);
  const SharedRanges key_at = key_load.store(keys);
  SharedRanges value_at;
  if constexpr (kPairs) value_at = value_load.store(values);
  __syncthreads();

  const K* a = keys + key_at.a_offset;
  const K* b = keys + key_at.b_offset;
  const int diagonal = min(VT * static_cast<int>(threadIdx.x), count);
  const int path = merge_path(a, a_n, b, b_n, diagonal, OrderedLess<K>{});
  K x[VT] = {};
  Value v[VT] = {};
  serial_merge<VT>(a, path, a_n, b, diagonal - path, b_n, OrderedLess<K>{},
                   [&](int i, bool from_a, int a_index, int b_index, K key) {
                     x[i] = key;
                     if constexpr (kPairs)
                       v[i] = values[from_a ? value_at.a_offset + a_index : value_at.b_offset + b_index];
                   });
  __syncthreads();

  const std::size_t base = static_cast<std::size_t>(tile) * Layout::kTile;
  store_thread_order_by_warp_vectorized<NT, VT>(keys_out + base, count, x, keys);
  if constexpr (kPairs) store_thread_order_by_warp_vectorized<NT, VT>(values_out + base, count, v, values);
}

template <int NT, int VT, class K>
void launch_tiles(const SortArgs<K>& args, const SortScratch<K>& scratch, cudaStream_t stream) {
  constexpr std::int64_t kTile = NT * VT;
  const auto n = static_cast<std::int64_t>(args.n);
  // The tile boundaries of one pass: far fewer than the scratch's 4 bytes per key.
  auto* partitions = reinterpret_cast<std::int64_t*>(scratch.rest);
  const unsigned grid = grid_of(ceil_div(args.n, kTile));
  for_each_pass(args, scratch, 1 + merge_sort_passes(n, kTile), stream,
                [&](const K* keys_in, const Value* values_in, K* keys_out, Value* values_out, int pass) {
                  if (pass == 0) {
                    launch_block_sort<NT, VT>(keys_in, values_in, keys_out, values_out, n, stream);
                    return;
                  }
                  const std::int64_t width = kTile << (pass - 1);
                  launch_merge_sort_partitions(keys_in, n, width, kTile, partitions, OrderedLess<K>{}, stream);
                  if (values_in != nullptr)
                    merge_pass_tiles_tuned<NT, VT, K, true><<<grid, NT, PassLayout<NT, VT, K, true>::kBytes, stream>>>(
                        keys_in, values_in, keys_out, values_out, n, width, partitions);
                  else
                    merge_pass_tiles_tuned<NT, VT, K, false>
                        <<<grid, NT, PassLayout<NT, VT, K, false>::kBytes, stream>>>(keys_in, nullptr, keys_out,
                                                                                     nullptr, n, width, partitions);
                  STEPWISE_CHECK_LAUNCH();
                });
}

template <class K>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  const SortScratch<K> scratch = carve_scratch(workspace, args);
  for (const void* pointer : {static_cast<const void*>(args.keys_in), static_cast<const void*>(args.keys_out),
                              static_cast<const void*>(args.values_in), static_cast<const void*>(args.values_out),
                              static_cast<const void*>(scratch.keys), static_cast<const void*>(scratch.values)})
    require_aligned(pointer, 16);
  dispatch_tile(
      shape, Threads{}, Values{},
      [&](auto nt, auto vt) {
        if (args.n == 0) return;
        launch_tiles<decltype(nt)::value, decltype(vt)::value>(args, scratch, stream);
      },
      "threads per block", "values per thread");
}

}  // namespace

template <class K>
SortStage<K> merge_tuned() {
  SortStage<K> stage;
  stage.name = "tuned";
  stage.lesson = "stage 2 with 16-byte loads of both ranges (values with keys), warp-level 16-byte stores, swept tile";
  stage.shape = kDefault;
  stage.sweep = tile_grid(Threads{}, Values{});
  stage.launch = launch<K>;
  stage.traits.algorithm = Algorithm::merge;
  stage.traits.first_run = kDefault.threads * kDefault.items;
  stage.traits.key_reads_per_pass = 1.0;  // each key once (the partition searches read n / NV keys more)
  stage.traits.key_writes_per_pass = 1.0;
  stage.traits.key_reads_per_sort = 1.0;  // the block sort reads and writes each key once
  stage.traits.key_writes_per_sort = 1.0;
  stage.traits.launches_per_pass = 2;  // the partition kernel and the merge
  stage.traits.launches_per_sort = 1;  // the block sort
  return stage;
}

SORT_STAGE_ROWS(merge_tuned);

}  // namespace stepwise::sort
