// Stage 3: one pass, one loop, coalesced stores. Stage 2 reads the inputs twice (a counting pass,
// CUB's scan of the tile counts, then a writing pass), runs each thread's loop twice, and each
// thread stores its kept keys to its own run of outputs, so a warp's stores are scattered over 32
// runs. Here a single kernel does it all: each tile counts its kept keys, learns the count of
// every tile before it by decoupled look-back (chapter 02's single-pass scan,
// common/device/lookback.cuh: tiles take tickets in launch order, publish their own count at
// once, and the first warp sums its predecessors'), and writes. Global memory sees the inputs
// once and the outputs once.
//
// The per-tile work is what thrust::set_* pares down, and so does this stage:
// - The serial loop runs once. The op is a template parameter, so each step is a few compares
//   and selects with no branch on the op; the loop always runs VT steps (a piece can hold VT + 1
//   elements, but then it ends in a pair, which one step consumes: balanced_piece_steps), holds
//   the front key of each input in a register (one shared-memory read per key consumed, with no
//   bounds check: shared memory holds one key past the tile's), and leaves each step's candidate
//   in a register with a bit of a mask for "kept" (set_ops.hpp's serial_set_op_masked). The block
//   scans the popcounts of the masks, and each thread writes its kept keys in output order over
//   the tile's own keys in shared memory, which the loop no longer needs: no second run of the
//   loop, and no second tile-sized array.
// - The balanced cuts, one per tile in the partition kernel and one per thread in shared
//   memory, find the run of the key at Merge Path's cut by galloping back from the cut in A and
//   B and forward in B alone, no further than the redeal can tell (CutSearch::near): one or two
//   reads where the key has no copies nearby, where stage 2's searches run over the whole inputs
//   (four binary searches, in global memory for the tiles). Each gallop and the binary search after
//   it run as one loop (lower_bound_before): threads of a warp in different phases step together.
// - The loads address the tile's keys by 32-bit offsets from its ranges' first keys: with 64-bit
//   indices into the whole inputs, the address sums took more instructions than the loads.
// - The look-back's first poll waits 1245 ns (chapter 02's default), so that a tile whose
//   predecessors are still running does not keep their statuses' L2 lines busy.
// - The registers are bounded (__launch_bounds__) to leave room for 1536 threads per SM, six
//   blocks of 256 where 46 registers a thread left five: each block's phases (load, search,
//   loop, look-back, store) run one after the other, and more blocks per SM overlap them.
// - Then the whole tile stores the kept keys with consecutive threads on consecutive outputs:
//   every warp-wide store one line.
// The tile is wider than stage 2's (more elements per thread), so that the partition searches,
// the threads' balanced cuts and the look-back are paid over more outputs; --sweep tries 128 and
// 256 threads with 11, 15, 19 and 23 elements each (512 x 23 does not fit 48 KB of shared memory).
//
// Variant rows (--variants; `3 - change` is this stage with that one change undone): the loop
// once, the near searches, the first poll, the register bound, the one-loop gallops, the tile
// offsets, the VT steps, and the tile.
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

/// The default tile, and the tile this stage ran at before (stage 3's first version).
constexpr int kThreads = 256;
constexpr int kItems = 19;
constexpr int kFirstThreads = 128;
constexpr int kFirstItems = 15;

/// How long the look-back waits before its first poll (chapter 02's single-pass default).
constexpr unsigned kFirstPollNs = 1245;
/// The threads the registers leave room for on an SM (AllChanges::resident_threads).
constexpr int kResidentThreads = 1536;

/// Stage 3 as it stands: every change on. Each variant row's struct turns one off.
struct AllChanges {
  /// The loop once, candidates in registers (true), or twice: count, then write to a second array.
  static constexpr bool loop_once = true;
  static constexpr CutSearch search = CutSearch::near;  ///< how the balanced cuts search
  static constexpr unsigned first_poll_ns = kFirstPollNs;
  /// The tile's loads by 32-bit offsets from its ranges' first keys (true), or 64-bit indices.
  static constexpr bool tile_offsets = true;
  /// The loop's steps: VT (SetTile::kSteps: a piece's pair-ending extra element costs no step),
  /// or VT + 1, a step for every element a piece can hold.
  static constexpr bool steps_of_pairs = true;
  /// The threads per SM the registers must leave room for (__launch_bounds__'s minimum blocks
  /// times NT): 1536, three quarters of an H100 SM, holds the kernel to 40 registers.
  static constexpr int resident_threads = kResidentThreads;
  using Threads = IntList<128, 256>;  ///< the tiles compiled: every shape of the sweep
  using Items = IntList<11, 15, 19, 23>;
};

/// A variant row runs at the default tile only, and compiles no other.
struct Variant : AllChanges {
  using Threads = IntList<kThreads>;
  using Items = IntList<kItems>;
};
/// `3 - loop once`: the loop run twice, once to count and once to write into a second
/// tile-sized shared array (the op still fixed at compile time).
struct WithoutLoopOnce : Variant {
  static constexpr bool loop_once = false;
};
/// `3 - near searches`: stage 2's balanced cuts, binary searches over the whole inputs.
struct WithoutNearSearch : Variant {
  static constexpr CutSearch search = CutSearch::full;
};
/// `3 - first poll 1245 ns`: the look-back polls at once.
struct WithoutFirstPoll : Variant {
  static constexpr unsigned first_poll_ns = 0;
};
/// `3 - 1536 threads per SM`: the registers bounded for 1280 threads, five blocks of 256, where the
/// compiler's own choice without a bound (46 registers) leaves the kernel.
struct WithoutResidentBound : Variant {
  static constexpr int resident_threads = 1280;
};
/// `3 - one-loop gallops`: each gallop and its binary search as two loops.
struct WithoutOneLoopGallops : Variant {
  static constexpr CutSearch search = CutSearch::near_two_loops;
};
/// `3 - tile offsets`: the loads address the whole inputs by 64-bit indices.
struct WithoutTileOffsets : Variant {
  static constexpr bool tile_offsets = false;
};
/// `3 - VT steps`: the loop runs VT + 1 steps, one for every element a piece can hold.
struct WithoutStepsOfPairs : Variant {
  static constexpr bool steps_of_pairs = false;
};
/// `3 - tile 256x19`: the tile stage 3 first ran at, 128 x 15.
struct WithFirstTile : AllChanges {
  using Threads = IntList<kFirstThreads>;
  using Items = IntList<kFirstItems>;
};

/// One tile per block, in ticket order: its kept keys to out[the kept keys of the tiles before
/// it, ...); the last tile also writes the output's length to @p out_count.
/// @tparam Changes AllChanges, or a variant row's struct
/// @tparam kOp the set operation
template <int NT, int VT, class Changes, SetOp kOp, class K>
__global__ void __launch_bounds__(NT, Changes::resident_threads / NT > 1 ? Changes::resident_threads / NT : 1)
    set_op_one_pass(const K* __restrict__ a, const K* __restrict__ b, TileCuts cuts, std::int64_t tiles,
                    unsigned* ticket_counter, PackedCountStatus status, K* __restrict__ out,
                    std::int64_t* __restrict__ out_count) {
  using Tile = SetTile<NT, VT, K, Changes::search>;
  using Scan = BlockScan<NT, Plus<int>>;
  __shared__ typename Tile::Storage storage;
  __shared__ typename Scan::Storage scan_storage;
  __shared__ unsigned ticket;
  __shared__ unsigned long long tile_prefix;
  if (threadIdx.x == 0) ticket = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  const std::int64_t t = ticket;
  Tile tile;
  tile.template load<Changes::tile_offsets>(a, b, cuts, t, storage);
  int tile_kept;
  const K* kept_keys;  // the tile's kept keys in output order, in shared memory
  if constexpr (Changes::loop_once) {
    constexpr int kStepCount = Changes::steps_of_pairs ? Tile::kSteps : Tile::kPiece;
    K keys[kStepCount];
    const unsigned mask = tile.template run_masked<kOp>(storage, keys);
    int place = Scan::exclusive_scan(__popc(mask), tile_kept, scan_storage, Plus<int>{});
    if (threadIdx.x == 0) status.publish(t, t == 0 ? kTileInclusive : kTileAggregate, tile_kept);
    __syncthreads();  // every loop is done with the tile's keys: the kept ones go over them
#pragma unroll
    for (int s = 0; s < kStepCount; ++s)
      if ((mask >> s) & 1u) storage.keys[place++] = keys[s];
    kept_keys = storage.keys;
  } else {
    __shared__ K kept[Tile::kCapacity];
    const int kept_count = tile.run(kOp, storage, [](const K&) {});
    int place = Scan::exclusive_scan(kept_count, tile_kept, scan_storage, Plus<int>{});
    if (threadIdx.x == 0) status.publish(t, t == 0 ? kTileInclusive : kTileAggregate, tile_kept);
    tile.run(kOp, storage, [&](const K& key) { kept[place++] = key; });
    kept_keys = kept;
  }
  const auto aggregate = static_cast<unsigned long long>(tile_kept);
  if (t == 0) {
    if (threadIdx.x == 0) tile_prefix = 0;
  } else if (threadIdx.x < 32) {
    // The count was published with the scan: the look-back alone is left.
    look_back_and_publish(status, t, aggregate, Plus<unsigned long long>{}, Changes::first_poll_ns, 0, threadIdx.x == 0,
                          tile_prefix);
  }
  __syncthreads();  // the kept keys and tile_prefix are ready
  const std::int64_t first = static_cast<std::int64_t>(tile_prefix);
  for (int k = threadIdx.x; k < tile_kept; k += NT) out[first + k] = kept_keys[k];
  if (t == tiles - 1 && threadIdx.x == 0) *out_count = first + tile_kept;
}

template <int NT, int VT, class Changes, SetOp kOp>
void run(const SetOpArgs& args, Workspace& workspace, cudaStream_t stream) {
  static_assert(NT * VT >= kMinSetTile, "the workspace holds boundaries for tiles of kMinSetTile elements");
  static_assert(VT + 1 <= 32, "one mask bit per step of the loop");
  const auto a_count = static_cast<std::int64_t>(args.a_count);
  const auto b_count = static_cast<std::int64_t>(args.b_count);
  const TiledScratch scratch = carve_tiled(workspace, args.a_count, args.b_count, NT * VT);
  const LookbackLayout layout = packed_lookback_layout(static_cast<std::size_t>(scratch.tiles));
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(scratch.lookback, 0, layout.clear_bytes, stream));
  launch_balanced_partitions<Changes::search>(args.a, a_count, args.b, b_count, NT * VT, scratch.tiles, scratch.cuts,
                                              stream);
  set_op_one_pass<NT, VT, Changes, kOp><<<grid_of(static_cast<std::size_t>(scratch.tiles)), NT, 0, stream>>>(
      args.a, args.b, scratch.cuts, scratch.tiles, reinterpret_cast<unsigned*>(scratch.lookback),
      PackedCountStatus{reinterpret_cast<unsigned long long*>(scratch.lookback + layout.status_offset)}, args.out,
      args.out_count);
  STEPWISE_CHECK_LAUNCH();
}

/// Picks the compiled tile of @p shape and the kernel of the op.
/// @tparam Changes AllChanges, or a variant row's struct
template <class Changes>
void launch(const SetOpArgs& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  dispatch_tile(shape, typename Changes::Threads{}, typename Changes::Items{}, [&](auto nt, auto vt) {
    with_set_op(args.op, [&](auto op) {
      run<decltype(nt)::value, decltype(vt)::value, Changes, decltype(op)::value>(args, workspace, stream);
    });
  });
}

}  // namespace

SetOpStage setop_tuned() {
  SetOpStage stage;
  stage.name = "one-pass";
  stage.lesson =
      "one pass: tile places by decoupled look-back, the loop once with candidates in registers, near searches for the "
      "cuts, coalesced stores";
  stage.shape = {kThreads, kItems};
  stage.sweep = tile_grid(AllChanges::Threads{}, AllChanges::Items{});
  stage.launch = launch<AllChanges>;
  stage.traits.work = SetWork::one_pass;
  // Each change undone alone, at the default tile but the last.
  stage.variants = {
      variant_of(stage, "loop once", "the loop run twice, to count and then to write into a second shared array",
                 launch<WithoutLoopOnce>),
      variant_of(stage, "near searches", "stage 2's balanced cuts: binary searches over the whole inputs",
                 launch<WithoutNearSearch>),
      variant_of(stage, "first poll 1245 ns", "the look-back polls its predecessors at once", launch<WithoutFirstPoll>),
      variant_of(stage, "1536 threads per SM",
                 "registers bounded for 1280 threads, five blocks of 256, as the compiler leaves them unbounded",
                 launch<WithoutResidentBound>),
      variant_of(stage, "one-loop gallops", "each gallop and the binary search after it as two loops",
                 launch<WithoutOneLoopGallops>),
      variant_of(stage, "tile offsets", "the loads address the whole inputs by 64-bit indices",
                 launch<WithoutTileOffsets>),
      variant_of(stage, "VT steps", "the loop runs VT + 1 steps, one for every element a piece can hold",
                 launch<WithoutStepsOfPairs>),
      variant_of(stage, "tile 256x19", "the tile this stage first ran at, 128 x 15", launch<WithFirstTile>),
  };
  stage.variants.back().shape = {kFirstThreads, kFirstItems};
  return stage;
}

}  // namespace stepwise::segmented
