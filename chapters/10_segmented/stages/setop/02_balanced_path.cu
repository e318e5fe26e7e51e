// Stage 2: Merge Path partitions and a serial set-op loop per thread (Baxter's decomposition:
// "start with merge and hack it up"). A set operation on sorted inputs walks them exactly as a
// merge does; only the serial loop differs: where a merge writes every element, std::set_*'s loop
// matches equal keys pairwise and writes the elements the op keeps. So the stage reuses chapter
// 03's two levels: a partition kernel cuts the inputs into tiles of NT*VT elements, each tile
// loads its two ranges into shared memory, each thread cuts its own VT elements there, and runs
// the serial loop on its piece, in registers.
//
// One change to the cuts: the serial loop pairs A's r-th copy of a key with B's r-th copy, so a
// cut must never leave one of a pair on each side. Merge Path's cut (ties take A first) would:
// all of A's copies of a key come before B's, and a tile boundary falling among them takes A's
// copies without their partners. The balanced cut (set_ops.hpp's balanced_cut, Baxter's
// Balanced Path) redeals the copies of the key at the cut in the order A0 B0 A1 B1 ... and, where
// the cut would split a pair, takes B's partner too: a tile or a thread may hold one element
// more than its share, and none straddles a pair. The CPU tests check the cuts and the tiled
// loop against std::set_* for every op, on multisets with long runs of duplicates.
//
// The output's size depends on the data, so this stage counts, then writes: a first pass runs
// every tile's loop only to count what it keeps, CUB scans the tile counts (the last entry is the
// output's length), and a second pass runs the loop again and each thread writes its kept keys
// from its tile's place plus the block-scanned counts of the threads before it. One balanced cut
// (a Merge Path search and at most four binary searches more) per tile and per thread, instead of
// four or five searches per element; the price is the loop run twice, the inputs read twice, and
// each thread's stores scattered across its own run of outputs.
#include <cub/device/device_scan.cuh>

#include "device/block.cuh"
#include "device/thread_ops.hpp"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "setop.cuh"

namespace stepwise::segmented {
namespace {

/// First pass: tile_counts[tile] = the elements the op keeps in tile blockIdx.x.
template <int NT, int VT, class K>
__global__ void __launch_bounds__(NT) count_tiles(SetOp op, const K* __restrict__ a, const K* __restrict__ b,
                                                  TileCuts cuts, std::int64_t* __restrict__ tile_counts) {
  using Tile = SetTile<NT, VT, K>;
  __shared__ typename Tile::Storage storage;
  __shared__ std::int64_t warp_totals[32];
  Tile tile;
  tile.load(a, b, cuts, blockIdx.x, storage);
  const int kept = tile.run(op, storage, [](const K&) {});
  const std::int64_t total = block_reduce(static_cast<std::int64_t>(kept), warp_totals, Plus<std::int64_t>{});
  if (threadIdx.x == 0) tile_counts[blockIdx.x] = total;
}

/// Second pass: every thread writes its kept keys to out[tile_places[tile] + the kept keys of the
/// tile's threads before it ...].
template <int NT, int VT, class K>
__global__ void __launch_bounds__(NT)
    write_tiles(SetOp op, const K* __restrict__ a, const K* __restrict__ b, TileCuts cuts,
                const std::int64_t* __restrict__ tile_places, K* __restrict__ out) {
  using Tile = SetTile<NT, VT, K>;
  using Scan = BlockScan<NT, Plus<int>>;
  __shared__ typename Tile::Storage storage;
  __shared__ typename Scan::Storage scan_storage;
  Tile tile;
  tile.load(a, b, cuts, blockIdx.x, storage);
  const int kept = tile.run(op, storage, [](const K&) {});
  int tile_kept;
  const int before = Scan::exclusive_scan(kept, tile_kept, scan_storage, Plus<int>{});
  K* to = out + tile_places[blockIdx.x] + before;
  tile.run(op, storage, [&](const K& key) { *to++ = key; });
}

using Threads = IntList<128, 256>;
using Items = IntList<7, 11, 15>;

template <int NT, int VT>
void run(const SetOpArgs& args, Workspace& workspace, cudaStream_t stream) {
  static_assert(NT * VT >= kMinSetTile, "the workspace holds boundaries for tiles of kMinSetTile elements");
  const auto a_count = static_cast<std::int64_t>(args.a_count);
  const auto b_count = static_cast<std::int64_t>(args.b_count);
  const TiledScratch scratch = carve_tiled(workspace, args.a_count, args.b_count, NT * VT);
  launch_balanced_partitions(args.a, a_count, args.b, b_count, NT * VT, scratch.tiles, scratch.cuts, stream);
  const unsigned grid = grid_of(static_cast<std::size_t>(scratch.tiles));
  count_tiles<NT, VT><<<grid, NT, 0, stream>>>(args.op, args.a, args.b, scratch.cuts, scratch.tile_counts);
  STEPWISE_CHECK_LAUNCH();
  std::size_t bytes = scratch.scan_temp_bytes;
  STEPWISE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.scan_temp, bytes, scratch.tile_counts, scratch.tile_counts,
                                                    scratch.tiles + 1, stream));
  write_tiles<NT, VT><<<grid, NT, 0, stream>>>(args.op, args.a, args.b, scratch.cuts, scratch.tile_counts, args.out);
  STEPWISE_CHECK_LAUNCH();
  STEPWISE_CUDA_CHECK(cudaMemcpyAsync(args.out_count, scratch.tile_counts + scratch.tiles, sizeof(std::int64_t),
                                      cudaMemcpyDeviceToDevice, stream));
}

void launch(const SetOpArgs& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  dispatch_tile(shape, Threads{}, Items{},
                [&](auto nt, auto vt) { run<decltype(nt)::value, decltype(vt)::value>(args, workspace, stream); });
}

}  // namespace

SetOpStage setop_balanced_path() {
  SetOpStage stage;
  stage.name = "balanced-path";
  stage.lesson = "merge's tiles, balanced so no pair of equal keys is split; a serial set-op loop; count, scan, write";
  stage.shape = {128, 11};
  stage.sweep = tile_grid(Threads{}, Items{});
  stage.launch = launch;
  stage.traits.work = SetWork::tiled;
  return stage;
}

}  // namespace stepwise::segmented
