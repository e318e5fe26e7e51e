// Stage 3: one pass, coalesced stores. Stage 2 reads the inputs twice (a counting pass, CUB's
// scan of the tile counts, then a writing pass) and each thread stores its kept keys to its own
// run of outputs, so a warp's stores are scattered over 32 runs. Here a single kernel does it all:
// each tile counts its kept keys, learns the count of every tile before it by decoupled
// look-back (chapter 02's single-pass scan, common/device/lookback.cuh: tiles take tickets in
// launch order, publish their own count at once, and the first warp sums its predecessors'), and
// writes. The kept keys are first gathered in shared memory in output order, then the whole tile
// stores them with consecutive threads on consecutive outputs: every warp-wide store one line.
// The loop still runs twice per thread, but on shared memory; global memory sees the inputs once
// and the outputs once. The tile is wider than stage 2's (more elements per thread), so that the
// partition searches and the look-back are paid over more outputs; --sweep tries 128 and 256
// threads with 11, 15 and 19 elements each.
#include <cuda_runtime.h>

#include "algorithm/lookback.hpp"
#include "device/block.cuh"
#include "device/lookback.cuh"
#include "device/thread_ops.hpp"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "setop.cuh"

namespace stepwise::segmented {
namespace {

/// One tile per block, in ticket order: its kept keys to out[the kept keys of the tiles before
/// it, ...); the last tile also writes the output's length to @p out_count.
template <int NT, int VT, class K>
__global__ void __launch_bounds__(NT)
    set_op_one_pass(SetOp op, const K* __restrict__ a, const K* __restrict__ b, TileCuts cuts, std::int64_t tiles,
                    unsigned* ticket_counter, PackedCountStatus status, K* __restrict__ out,
                    std::int64_t* __restrict__ out_count) {
  using Tile = SetTile<NT, VT, K>;
  using Scan = BlockScan<NT, Plus<int>>;
  __shared__ typename Tile::Storage storage;
  __shared__ K kept_keys[Tile::kCapacity];
  __shared__ typename Scan::Storage scan_storage;
  __shared__ unsigned ticket;
  __shared__ unsigned long long tile_prefix;
  if (threadIdx.x == 0) ticket = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  const std::int64_t t = ticket;
  Tile tile;
  tile.load(a, b, cuts, t, storage);
  const int kept = tile.run(op, storage, [](const K&) {});
  int tile_kept;
  int place = Scan::exclusive_scan(kept, tile_kept, scan_storage, Plus<int>{});
  tile.run(op, storage, [&](const K& key) { kept_keys[place++] = key; });
  const auto aggregate = static_cast<unsigned long long>(tile_kept);
  if (t == 0) {
    if (threadIdx.x == 0) {
      status.publish(0, kTileInclusive, aggregate);
      tile_prefix = 0;
    }
  } else {
    if (threadIdx.x == 0) status.publish(t, kTileAggregate, aggregate);
    if (threadIdx.x < 32) {
      const unsigned long long before = look_back(status, t, Plus<unsigned long long>{}, 0);
      if (threadIdx.x == 0) {
        status.publish(t, kTileInclusive, before + aggregate);
        tile_prefix = before;
      }
    }
  }
  __syncthreads();  // kept_keys and tile_prefix are ready
  const std::int64_t first = static_cast<std::int64_t>(tile_prefix);
  for (int k = threadIdx.x; k < tile_kept; k += NT) out[first + k] = kept_keys[k];
  if (t == tiles - 1 && threadIdx.x == 0) *out_count = first + tile_kept;
}

using Threads = IntList<128, 256>;
using Items = IntList<11, 15, 19>;

template <int NT, int VT>
void run(const SetOpArgs& args, Workspace& workspace, cudaStream_t stream) {
  static_assert(NT * VT >= kMinSetTile, "the workspace holds boundaries for tiles of kMinSetTile elements");
  const auto a_count = static_cast<std::int64_t>(args.a_count);
  const auto b_count = static_cast<std::int64_t>(args.b_count);
  const TiledScratch scratch = carve_tiled(workspace, args.a_count, args.b_count, NT * VT);
  const LookbackLayout layout = packed_lookback_layout(static_cast<std::size_t>(scratch.tiles));
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(scratch.lookback, 0, layout.clear_bytes, stream));
  launch_balanced_partitions(args.a, a_count, args.b, b_count, NT * VT, scratch.tiles, scratch.cuts, stream);
  set_op_one_pass<NT, VT><<<grid_of(static_cast<std::size_t>(scratch.tiles)), NT, 0, stream>>>(
      args.op, args.a, args.b, scratch.cuts, scratch.tiles, reinterpret_cast<unsigned*>(scratch.lookback),
      PackedCountStatus{reinterpret_cast<unsigned long long*>(scratch.lookback + layout.status_offset)}, args.out,
      args.out_count);
  STEPWISE_CHECK_LAUNCH();
}

void launch(const SetOpArgs& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  dispatch_tile(shape, Threads{}, Items{},
                [&](auto nt, auto vt) { run<decltype(nt)::value, decltype(vt)::value>(args, workspace, stream); });
}

}  // namespace

SetOpStage setop_tuned() {
  SetOpStage stage;
  stage.name = "one-pass";
  stage.lesson = "one pass: tile places by decoupled look-back, kept keys gathered in shared memory, coalesced stores";
  stage.shape = {128, 15};
  stage.sweep = tile_grid(Threads{}, Items{});
  stage.launch = launch;
  stage.traits.work = SetWork::one_pass;
  return stage;
}

}  // namespace stepwise::segmented
