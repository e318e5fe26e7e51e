// Merge stage 3, tuned: stage 2's algorithm with chapter 03's tuned merge tile in every pass,
// a larger tile, and each kernel launched while the one before it finishes.
//
// Changed from stage 2 (the block sort, merge_sort.cuh's, is the same kernel at this stage's tile):
// - The merge passes move a tile's A and B ranges to shared memory as 16-byte vectors
//   (common/device/merge_tile.cuh's VectorizedRangeLoad): a quarter of the load instructions of
//   4-byte loads. A range that starts mid-vector keeps its offset in shared memory.
// - Pairs load their values together with their keys, before the one barrier, so all of a
//   tile's loads are in flight at once; each merge step picks its value from shared memory by
//   the index it took (stage 2 gathers values from global memory after the merge).
// - The tile leaves through the warp-level transpose with 16-byte stores
//   (store_thread_order_by_warp_vectorized): __syncwarp instead of block barriers.
// - The partition kernel and the merge of every pass are programmatic dependent launches
//   (common/device/grid_dependency.cuh, as CUB launches its merge sort's kernels): each starts
//   while the kernel before it finishes its last blocks, and waits for it before its first read,
//   so the launch gaps between a sort's 2 log2(n / tile) + 1 kernels overlap work. The block sort
//   and every merge let the next kernel start once their loads are issued.
// - Where a pass has few tiles, the partition kernel gives each tile boundary a warp
//   (common/device/warp_merge_path.cuh): 32 probes a step find the boundary in about log32(L)
//   round trips to memory instead of log2(L) on a diagonal of L places. While those warps fit
//   the GPU at once the kernel is one wave, and its time is its longest search; with more
//   boundaries it keeps one thread's search per boundary (boundary_search()).
// - The tile is 256 x 17 for 4-byte keys, 256 x 15 for 8-byte keys (stage 2: 128 x 15): a tile
//   twice as large leaves half the runs, one global pass fewer, and the block sort's extra
//   merge round stays in shared memory. A tile of 8-byte pairs at 256 x 17 would not fit the
//   48 KiB of shared memory a block gets by default. --sweep varies the tile.
// Each of the last three is a variant row (--variants) that undoes it. Every pointer must be
// 16-byte aligned (cudaMalloc's are); the launcher refuses others.
#include "algorithm/merge_path.hpp"
#include "algorithm/merge_sort.hpp"
#include "device/grid_dependency.cuh"
#include "device/merge_tile.cuh"
#include "host/check.hpp"
#include "host/dependent_launch.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "kernels/merge_sort_partitions.cuh"
#include "merge_sort.cuh"
#include "sort.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace stepwise::sort {
namespace {

/// The tiles compiled in; a key type runs those whose pairs fit shared memory (kFits).
using Threads = IntList<128, 256>;
using Values = IntList<7, 11, 15, 17>;

/// The default tile of @p K's keys: 256 x 17 for 4-byte keys, 256 x 15 for 8-byte keys.
template <class K>
constexpr LaunchShape default_shape() {
  return sizeof(K) == 4 ? LaunchShape{256, 17} : LaunchShape{256, 15};
}

/// Stage 2's tile, the variant row that undoes the larger one.
constexpr LaunchShape kStage2Tile{128, 15};

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
};

/// Whether an NT x VT tile of @p K's pairs (and so of its keys) fits the 48 KiB of shared memory
/// a block gets by default, in the pass kernel and in the block sort alike.
template <int NT, int VT, class K>
constexpr bool kFits = PassLayout<NT, VT, K, true>::kBytes <= 48 * 1024 &&
                       sizeof(BlockSortStorage<NT, VT, K, true>) <= 48 * 1024;

/// One tile of a merge pass over runs of @p width: both ranges (keys, and values with pairs)
/// to shared memory as 16-byte vectors, each thread's search and serial merge there, the tile
/// back to the same positions through warp-level 16-byte stores. Ready for a dependent launch:
/// it waits for the partition kernel before its first read, and lets the next pass's partition
/// kernel start once its loads are issued.
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
  wait_for_prior_grid();
  const MergeRange<std::int64_t> range =
      merge_sort_tile_range<std::int64_t>(n, width, Layout::kTile, tile, partitions[tile], partitions[tile + 1]);
  const int a_n = static_cast<int>(range.a_count());
  const int b_n = static_cast<int>(range.b_count());
  const int count = a_n + b_n;

  typename Layout::KeyLoad key_load;
  key_load.load(keys_in, n, range.a_begin, a_n, keys_in, n, range.b_begin, b_n);
  typename Layout::ValueLoad value_load;
  if constexpr (kPairs) value_load.load(values_in, n, range.a_begin, a_n, values_in, n, range.b_begin, b_n);
  allow_next_grid();
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

/// The search of a pass's partition kernel over @p boundaries tile boundaries: a warp per
/// boundary while those warps fit the GPU at once (boundaries_fit_a_warp_each), else a thread per
/// boundary. With @p kSwap (the variant row) the other one.
template <bool kSwap>
BoundarySearch boundary_search(std::size_t boundaries) {
  return boundaries_fit_a_warp_each(boundaries) != kSwap ? BoundarySearch::warp : BoundarySearch::thread;
}

/// Enqueues the sort: the block sort, then each pass's partition kernel (boundary_search<@p
/// kSwapSearch>) and merge, those two as dependent launches with @p kDependent.
template <int NT, int VT, class K, bool kDependent, bool kSwapSearch>
void launch_tiles(const SortArgs<K>& args, const SortScratch<K>& scratch, cudaStream_t stream) {
  constexpr std::int64_t kTile = NT * VT;
  const auto n = static_cast<std::int64_t>(args.n);
  const BoundarySearch search = boundary_search<kSwapSearch>(merge_partition_count(args.n, std::size_t(kTile)));
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
                  launch_merge_sort_partitions(keys_in, n, width, kTile, partitions, OrderedLess<K>{}, stream,
                                               kDependent, search);
                  if (values_in != nullptr)
                    launch_dependent(kDependent, merge_pass_tiles_tuned<NT, VT, K, true>, grid, NT,
                                     PassLayout<NT, VT, K, true>::kBytes, stream, keys_in, values_in, keys_out,
                                     values_out, n, width, static_cast<const std::int64_t*>(partitions));
                  else
                    launch_dependent(kDependent, merge_pass_tiles_tuned<NT, VT, K, false>, grid, NT,
                                     PassLayout<NT, VT, K, false>::kBytes, stream, keys_in, values_in, keys_out,
                                     values_out, n, width, static_cast<const std::int64_t*>(partitions));
                });
}

/// Every compiled tile whose pairs of @p K fit shared memory: the sweep.
template <class K>
std::vector<LaunchShape> tile_shapes() {
  std::vector<LaunchShape> shapes;
  for (const LaunchShape& shape : tile_grid(Threads{}, Values{})) {
    bool fits = false;
    dispatch_tile(shape, Threads{}, Values{},
                  [&](auto nt, auto vt) { fits = kFits<decltype(nt)::value, decltype(vt)::value, K>; });
    if (fits) shapes.push_back(shape);
  }
  return shapes;
}

template <class K, bool kDependent, bool kSwapSearch>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  const SortScratch<K> scratch = carve_scratch(workspace, args);
  for (const void* pointer : {static_cast<const void*>(args.keys_in), static_cast<const void*>(args.keys_out),
                              static_cast<const void*>(args.values_in), static_cast<const void*>(args.values_out),
                              static_cast<const void*>(scratch.keys), static_cast<const void*>(scratch.values)})
    require_aligned(pointer, 16);
  dispatch_tile(
      shape, Threads{}, Values{},
      [&](auto nt, auto vt) {
        constexpr int NT = decltype(nt)::value;
        constexpr int VT = decltype(vt)::value;
        if constexpr (kFits<NT, VT, K>) {
          if (args.n == 0) return;
          launch_tiles<NT, VT, K, kDependent, kSwapSearch>(args, scratch, stream);
        } else {
          throw std::invalid_argument("tuned merge sort: a tile of " + std::to_string(NT) + " x " + std::to_string(VT) +
                                      " " + std::to_string(sizeof(K)) +
                                      "-byte keys with values does not fit 48 KiB of shared memory");
        }
      },
      "threads per block", "values per thread");
}

}  // namespace

template <class K>
SortStage<K> merge_tuned() {
  SortStage<K> stage;
  stage.name = "tuned";
  stage.lesson =
      "stage 2 with 16-byte loads (values with keys), warp-level 16-byte stores, larger tiles, each pass's kernels "
      "launched while the one before finishes, a warp per tile boundary where they are few";
  stage.shape = default_shape<K>();
  stage.sweep = tile_shapes<K>();
  stage.launch = launch<K, true, false>;
  stage.traits.algorithm = Algorithm::merge;
  stage.traits.first_run = stage.shape.threads * stage.shape.items;
  stage.traits.key_reads_per_pass = 1.0;  // each key once (the partition searches read n / NV keys more)
  stage.traits.key_writes_per_pass = 1.0;
  stage.traits.key_reads_per_sort = 1.0;  // the block sort reads and writes each key once
  stage.traits.key_writes_per_sort = 1.0;
  stage.traits.launches_per_pass = 2;  // the partition kernel and the merge
  stage.traits.launches_per_sort = 1;  // the block sort
  stage.variants = {
      variant_of(stage, "dependent launch",
                 "every kernel launched the ordinary way, after the one before it has finished (stage 2)",
                 launch<K, false, false>),
      variant_of(stage, "boundary search",
                 "the other partition search: one thread's binary search per tile boundary (stage 2) where stage 3 "
                 "gives each a warp (few boundaries), a warp where it gives a thread",
                 launch<K, true, true>),
      variant_of(stage, "tile", "stage 2's tile, 128 x 15 keys", launch<K, true, false>),
  };
  stage.variants.back().shape = kStage2Tile;
  stage.variants.back().traits.first_run = kStage2Tile.threads * kStage2Tile.items;
  return stage;
}

SORT_STAGE_ROWS(merge_tuned);

}  // namespace stepwise::sort
