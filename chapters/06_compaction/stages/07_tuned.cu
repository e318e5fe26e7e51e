// Stage 7, tuned single pass: 16-byte loads, and the kept elements staged in shared memory so
// that every store is coalesced (ordered).
//
// Changed from stage 6, two things. First, each thread loads its elements four at a time (one 16-byte load of keys, and
// of values with a payload; one 4-byte load of four flags), and each warp owns a contiguous slice of the tile
// (warp-striped, as chapter 02's tiles), so a warp's load moves 512 consecutive bytes. Second,
// the two-phase scatter: each warp packs its kept elements at the front of its slice of shared
// memory as soon as its ballots give the ranks, with no block barrier and no block-wide scan of
// step counts, so the registers holding the tile are free before anyone waits; warp 0 then scans
// the warps' counts, publishes and looks back, and the block copies the packed elements out with
// consecutive threads on consecutive addresses. The tile's loads, packing and copying live in
// tuned_tile.cuh (stage 8 uses them too): every load of a thread is issued before any element
// is tested, and flag bytes are tested in the word they arrive in. The default shape is what
// --sweep measured fastest on an H100 at 2^26 and 2^28 elements, and the first poll of the
// look-back waits 2600 ns, the fastest of the delays compared there; up to 2^22 elements the
// sweep picked 128 x 32 and a first poll of 1245 ns (shapes_by_n; README). The last tile's ragged end is
// loaded element by element.
// What the stage does not do: load tile blockIdx.x while its ticket's atomic is in flight, as
// chapter 02's single-pass scan does (--speculative-load). On an H100 tickets are drawn out of
// block order so often that about nine guesses in ten are wrong and reload their tile (ncu, 2^26
// elements: 16.9 M L2 read sectors against 8.9 M with the ticket first), 7-19 % slower from 2^24
// to 2^28 elements (README).
//
// Variant rows (--variants; `7 - change` is this stage with that one change undone): which of
// its changes pays, each measured against the stage as it stands. The
// 16-byte loads, loads first, packed flags, the staged stores, the 2600 ns first poll, and the
// 128 x 40 tile. The warp slices are not among them: both the 16-byte loads and the packing
// need them.
#include "algorithm/lookback.hpp"
#include "compaction.cuh"
#include "device/lookback.cuh"
#include "host/check.hpp"
#include "host/launch.hpp"
#include "tuned_tile.cuh"

namespace stepwise::compaction {
namespace {

/// The first poll when --first-poll-ns is not given, above kEarlyPollUpToN elements. On an H100
/// (int32, 50 %, the ticket first, the sweep's best tile), 2600 ns beat 1245 ns by 4 % and 0 ns by
/// 12-13 % at 2^26 and 2^28 elements; for the single-pass stage a late first poll was 21-27 % slower
/// than that stage's 1245 ns (README), hence a default per stage.
constexpr unsigned kTunedFirstPollNs = 2600;
/// Up to this many elements the first poll is stage 6's (H100 sweep at 2^20 and 2^22, ticket first:
/// 1245 ns beat 2600 by 4-11 %; at 2^24 the two were within 0.5 %).
constexpr std::size_t kEarlyPollUpToN = std::size_t{1} << 22;
/// The first poll the change above replaced: stage 6's default, chapter 02's 1245 ns.
constexpr unsigned kSinglePassFirstPollNs = 1245;

constexpr unsigned kBackoffNs = 0;

/// The default tile (--sweep's best on an H100), and the tile of stage 6 that it replaced.
constexpr int kThreads = 128;
constexpr int kItems = 40;
constexpr int kSinglePassThreads = 256;
constexpr int kSinglePassItems = 12;
/// The tile up to kEarlyPollUpToN elements (the sweep's best at 2^22; at 2^20 within noise of the best).
constexpr int kSmallItems = 32;

/// Stage 7 as it stands: every change on. Each variant row's struct turns one off.
struct AllChanges {
  using Tile = TunedTileFeatures;  ///< the tile's changes (tuned_tile.cuh)
  using Threads = TunedThreads;    ///< the tiles compiled: every shape of the sweep
  using Items = TunedItems;
  /// The first poll unless --first-poll-ns: stage 6's up to kEarlyPollUpToN elements, 2600 ns above.
  static unsigned first_poll_ns(std::size_t n) {
    return n <= kEarlyPollUpToN ? kSinglePassFirstPollNs : kTunedFirstPollNs;
  }
};

/// A variant row runs at the default tile only, and compiles no other.
struct Variant : AllChanges {
  using Threads = IntList<kThreads>;
  using Items = IntList<kItems>;
};
/// `7 - 16-byte loads`: four 4-byte loads of keys (values), four 1-byte loads of flags.
struct WithoutVectorLoads : Variant {
  struct Tile : TunedTileFeatures {
    static constexpr bool vector_loads = false;
  };
};
/// `7 - loads first`: each vector tested right after its load.
struct WithoutLoadsFirst : Variant {
  struct Tile : TunedTileFeatures {
    static constexpr bool loads_first = false;
  };
};
/// `7 - packed flags`: a flag byte per element, unpacked and tested one by one.
struct WithoutPackedFlags : Variant {
  struct Tile : TunedTileFeatures {
    static constexpr bool packed_flags = false;
  };
};
/// `7 - staged stores`: the kept elements stored from registers, no shared-memory staging.
struct WithoutStagedStores : Variant {
  struct Tile : TunedTileFeatures {
    static constexpr bool staged_stores = false;
  };
};
/// `7 - first poll 2600 ns`: the first poll after stage 6's 1245 ns at every size.
struct WithoutLatePoll : Variant {
  static unsigned first_poll_ns(std::size_t) { return kSinglePassFirstPollNs; }
};
/// `7 - tile 128x40`: stage 6's 256 x 12 tile.
struct WithSinglePassTile : AllChanges {
  using Threads = IntList<kSinglePassThreads>;
  using Items = IntList<kSinglePassItems>;
};

/// VECTORS vectors of 4 elements per thread, one tile per block, the tile number a ticket.
/// @tparam Features the tile's changes that are on (TunedTileFeatures: all of them but in a variant row)
template <int NT, int VECTORS, class Features, class Selector>
__global__ void __launch_bounds__(NT)
    select_tuned(Selector selector, std::size_t n, unsigned* ticket_counter, PackedCountStatus status,
                 unsigned long long* kept_count, unsigned first_poll_ns, bool speculative, unsigned guess_shift) {
  using Tile = TunedTile<NT, VECTORS, Selector, Features>;
  using K = typename Selector::Key;
  __shared__ typename Tile::Storage storage;
  __shared__ unsigned ticket;
  __shared__ unsigned tile_total;
  __shared__ unsigned long long tile_prefix;
  unsigned drawn = 0;
  if (threadIdx.x == 0) drawn = atomicAdd(ticket_counter, 1u);
  // With --speculative-load, load tile blockIdx.x while the ticket's round trip to L2 is in
  // flight (a guess: most are wrong on an H100, README). The tile is still the ticket's.
  Element<K> x[VECTORS][4];
  unsigned kept_bits[VECTORS];
  const std::size_t guess = (blockIdx.x + guess_shift) % gridDim.x;
  if (speculative) Tile::load(selector, guess * Tile::kTile, Tile::count_at(guess * Tile::kTile, n), x, kept_bits);
  if (threadIdx.x == 0) ticket = drawn;
  __syncthreads();
  const std::size_t tile = ticket;
  const std::size_t base = tile * Tile::kTile;
  const int count = Tile::count_at(base, n);
  if (!speculative || tile != guess) Tile::load(selector, base, count, x, kept_bits);
  unsigned ranks[VECTORS];  // without staged stores: this lane's ranks in its warp, step by step
  if constexpr (Features::staged_stores) {
    Tile::pack(x, kept_bits, storage);
  } else {
    Tile::rank(kept_bits, ranks, storage);
  }
  __syncthreads();

  // Warp 0: the warps' counts scanned, the tile's count published, the look-back.
  if (threadIdx.x < 32) {
    const unsigned total = Tile::scan_warp_counts(storage);
    const bool leader = threadIdx.x == 0;
    if (leader) status.publish(tile, tile == 0 ? kTileInclusive : kTileAggregate, total);
    unsigned long long before = 0;
    if (tile != 0) {
      if (first_poll_ns != 0) __nanosleep(first_poll_ns);
      before = look_back(status, tile, Plus<unsigned long long>{}, kBackoffNs);
      if (leader) status.publish(tile, kTileInclusive, before + total);
    }
    if (leader) {
      tile_prefix = before;
      tile_total = total;
      if (base + count == n) *kept_count = before + total;
    }
  }
  __syncthreads();
  if constexpr (Features::staged_stores) {
    Tile::copy_out(selector, tile_prefix, tile_total, storage);
  } else {
    Tile::scatter(selector, tile_prefix, x, kept_bits, ranks, storage);
  }
}

/// Clears the ticket and the statuses, then one block per tile.
/// @tparam Changes AllChanges, or a variant row's struct
template <class K, class Changes = AllChanges>
void launch(const SelectArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  using Threads = typename Changes::Threads;
  using Items = typename Changes::Items;
  with_tuned_tile<Threads, Items>(args, shape, [&](auto threads, auto vectors, auto selector) {
    constexpr int NT = decltype(threads)::value;
    constexpr int kVectors = decltype(vectors)::value;
    static_assert(NT * kVectors * 4 >= kMinLookbackTile, "the workspace holds statuses for tiles of kMinLookbackTile");
    if (args.n == 0) {
      STEPWISE_CUDA_CHECK(cudaMemsetAsync(args.kept_count, 0, sizeof(*args.kept_count), stream));
      return;
    }
    const std::size_t tiles = ceil_div(args.n, NT * kVectors * 4);
    const LookbackLayout layout = packed_lookback_layout(tiles);
    workspace.require(layout.total_bytes);
    STEPWISE_CUDA_CHECK(cudaMemsetAsync(workspace.data(), 0, layout.clear_bytes, stream));
    auto* ticket = reinterpret_cast<unsigned*>(workspace.data());
    const PackedCountStatus status{reinterpret_cast<unsigned long long*>(workspace.data() + layout.status_offset)};
    select_tuned<NT, kVectors, typename Changes::Tile><<<grid_of(tiles), NT, 0, stream>>>(
        selector, args.n, ticket, status, args.kept_count, args.first_poll_ns.value_or(Changes::first_poll_ns(args.n)),
        args.speculative, args.guess_shift);
    STEPWISE_CHECK_LAUNCH();
  });
}

}  // namespace

template <class K>
SelectStage<K> tuned() {
  SelectStage<K> stage;
  stage.name = "tuned";
  stage.lesson = "16-byte loads, stores staged in shared memory, first poll 2600 ns (1245 up to 2^22 elements)";
  stage.shape = {kThreads, kItems};
  stage.sweep = tuned_sweep();
  stage.shapes_by_n = {{kEarlyPollUpToN, {kThreads, kSmallItems}}};
  stage.launch = launch<K>;
  stage.options = {"--first-poll-ns", "--speculative-load"};
  stage.traits.cost.ticket_per_tile = true;
  stage.traits.diagram = Diagram::sliced_tile_lookback;
  // Each change undone alone. An option that sets what a row's change is about
  // (--first-poll-ns) sets it in both rows alike.
  stage.variants = {
      variant_of(stage, "16-byte loads", "four 4-byte loads (four 1-byte flag loads) in place of each 16-byte one",
                 launch<K, WithoutVectorLoads>),
      variant_of(stage, "loads first", "each vector tested as soon as it is loaded, before the next load",
                 launch<K, WithoutLoadsFirst>),
      variant_of(stage, "packed flags",
                 "with --flags, flag bytes unpacked, a byte per element held across the tile (the predicate's "
                 "kernel is stage 7's)",
                 launch<K, WithoutPackedFlags>),
      variant_of(stage, "staged stores", "kept elements stored from registers at their ranks, no shared memory",
                 launch<K, WithoutStagedStores>),
      variant_of(stage, "first poll 2600 ns",
                 "the look-back first polls after stage 6's 1245 ns at every size (up to 2^22 elements, as the stage)",
                 launch<K, WithoutLatePoll>),
      variant_of(stage, "tile 128x40", "stage 6's tile, 256 x 12", launch<K, WithSinglePassTile>),
  };
  stage.variants.back().shape = {kSinglePassThreads, kSinglePassItems};
  return stage;
}

COMPACTION_STAGE_ROWS(tuned);

}  // namespace stepwise::compaction
