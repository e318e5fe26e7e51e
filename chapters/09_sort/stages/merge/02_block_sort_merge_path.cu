// Merge stage 2, block sort + Merge Path passes (Baxter's moderngpu mergesort).
//
// Changed from stage 1: the first passes and every merge move on chip. A block-sort kernel
// reads each tile of NV = NT x VT keys once, sorts it in registers and shared memory
// (common/device/block_sort.cuh: an odd-even transposition network over each thread's VT keys,
// stable where a bitonic network is not, then Merge Path merges of ever longer runs in shared
// memory) and writes it back as one sorted run: the log2 NV passes of stage 1 that fit in a
// tile cost one read and one write. Then ceil(log2(n / NV)) global passes merge neighbouring
// runs, each one chapter 03's two-level merge (stage 3 there) over all pairs of runs at once:
// a partition kernel finds, by one Merge Path search per tile boundary inside that boundary's
// pair of runs (common/algorithm/merge_sort.hpp), the A and B ranges of every tile of NV
// outputs; each block loads its two ranges with coalesced loads into shared memory, every
// thread searches its diagonal there and merges VT outputs in registers, and the tile leaves
// through the strided transpose. Values follow their keys: the block sort carries them through
// every exchange and, after each merge round, gathers them by the shared-memory slot each output
// came from; a pass gathers them by the index each output came from. Ties take
// the earlier run, so equal keys keep their input order. Every pass reads and writes each key
// once, plus n / NV searches: log2(n / NV) + 1 passes where stage 1 makes log2 n, each with
// log2(run) dependent loads per key.
#include "algorithm/merge_path.hpp"
#include "algorithm/merge_sort.hpp"
#include "device/merge_tile.cuh"
#include "device/tile.cuh"
#include "host/check.hpp"
#include "host/launch.hpp"
#include "kernels/merge_sort_partitions.cuh"
#include "merge_sort.cuh"
#include "sort.hpp"

namespace stepwise::sort {
namespace {

/// The tile of the block sort and of the merge passes: chapter 03's two-level merge tile,
/// 128 x 15, for every key type (--analyze's pass count reads one first run per row).
template <class K>
constexpr LaunchShape kShape{128, 15};

template <int NT, int VT, class K>
union MergeStorage {
  K keys[NT * VT];
  Value values[NT * VT];
};

/// One tile of a merge pass over runs of @p width: its A and B ranges (from the boundaries in
/// @p partitions) to shared memory, each thread's search and serial merge of VT outputs there,
/// the tile back to the same positions of @p keys_out; values gathered by the indices the
/// merge took.
template <int NT, int VT, class K, bool kPairs>
__global__ void __launch_bounds__(NT)
    merge_pass_tiles(const K* __restrict__ keys_in, const Value* __restrict__ values_in, K* __restrict__ keys_out,
                     Value* __restrict__ values_out, std::int64_t n, std::int64_t width,
                     const std::int64_t* __restrict__ partitions) {
  constexpr int kTile = NT * VT;
  __shared__ MergeStorage<NT, VT, K> storage;
  const std::int64_t tile = blockIdx.x;
  const MergeRange<std::int64_t> range =
      merge_sort_tile_range<std::int64_t>(n, width, kTile, tile, partitions[tile], partitions[tile + 1]);
  const int a_n = static_cast<int>(range.a_count());
  const int b_n = static_cast<int>(range.b_count());
  const int count = a_n + b_n;
  load_ranges_strided<NT, VT>(keys_in + range.a_begin, a_n, keys_in + range.b_begin, b_n, storage.keys);
  __syncthreads();
  const int diagonal = min(VT * static_cast<int>(threadIdx.x), count);
  const int path = merge_path(storage.keys, a_n, storage.keys + a_n, b_n, diagonal, OrderedLess<K>{});
  K x[VT] = {};
  int from[VT] = {};  // where output i came from: A's index, or a_n + B's index
  serial_merge<VT>(storage.keys, path, a_n, storage.keys + a_n, diagonal - path, b_n, OrderedLess<K>{},
                   [&](int i, bool from_a, int a_index, int b_index, K key) {
                     x[i] = key;
                     from[i] = from_a ? a_index : a_n + b_index;
                   });
  __syncthreads();
  const std::size_t base = static_cast<std::size_t>(tile) * kTile;
  store_thread_order<NT, VT>(keys_out, base, count, x, storage.keys);
  if constexpr (kPairs) {
    Value v[VT] = {};
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (diagonal + i < count)
        v[i] = from[i] < a_n ? values_in[range.a_begin + from[i]] : values_in[range.b_begin + (from[i] - a_n)];
    store_thread_order<NT, VT>(values_out, base, count, v, storage.values);
  }
}

template <class K>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  constexpr int kNT = kShape<K>.threads;
  constexpr int kVT = kShape<K>.items;
  constexpr std::int64_t kTile = kNT * kVT;
  require_shape(shape, kShape<K>);
  const SortScratch<K> scratch = carve_scratch(workspace, args);
  if (args.n == 0) return;
  const auto n = static_cast<std::int64_t>(args.n);
  // The tile boundaries of one pass: far fewer than the scratch's 4 bytes per key.
  auto* partitions = reinterpret_cast<std::int64_t*>(scratch.rest);
  const unsigned grid = grid_of(ceil_div(args.n, kTile));
  for_each_pass(args, scratch, 1 + merge_sort_passes(n, kTile), stream,
                [&](const K* keys_in, const Value* values_in, K* keys_out, Value* values_out, int pass) {
                  if (pass == 0) {
                    launch_block_sort<kNT, kVT>(keys_in, values_in, keys_out, values_out, n, stream);
                    return;
                  }
                  const std::int64_t width = kTile << (pass - 1);
                  launch_merge_sort_partitions(keys_in, n, width, kTile, partitions, OrderedLess<K>{}, stream);
                  if (values_in != nullptr)
                    merge_pass_tiles<kNT, kVT, K, true>
                        <<<grid, kNT, 0, stream>>>(keys_in, values_in, keys_out, values_out, n, width, partitions);
                  else
                    merge_pass_tiles<kNT, kVT, K, false>
                        <<<grid, kNT, 0, stream>>>(keys_in, nullptr, keys_out, nullptr, n, width, partitions);
                  STEPWISE_CHECK_LAUNCH();
                });
}

}  // namespace

template <class K>
SortStage<K> merge_block_sort_merge_path() {
  SortStage<K> stage;
  stage.name = "block-sort";
  stage.lesson =
      "tiles sorted on chip (register transposition sort, shared-memory merges), then two-level Merge Path passes";
  stage.shape = kShape<K>;
  stage.launch = launch<K>;
  stage.traits.algorithm = Algorithm::merge;
  stage.traits.first_run = kShape<K>.threads * kShape<K>.items;
  stage.traits.key_reads_per_pass = 1.0;  // each key once (the partition searches read n / NV keys more)
  stage.traits.key_writes_per_pass = 1.0;
  stage.traits.key_reads_per_sort = 1.0;  // the block sort reads and writes each key once
  stage.traits.key_writes_per_sort = 1.0;
  stage.traits.launches_per_pass = 2;  // the partition kernel and the merge
  stage.traits.launches_per_sort = 1;  // the block sort
  return stage;
}

SORT_STAGE_ROWS(merge_block_sort_merge_path);

}  // namespace stepwise::sort
