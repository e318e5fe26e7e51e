// Stage 2, single pass: a scan of (flag, value) pairs with decoupled look-back, n items in one
// read and one write whatever the segments.
//
// Changed from stage 1: the unit of work is a tile of NT x VT consecutive items, not a segment.
// Each item becomes a pair: a flag, set where its segment id differs from the item before's (the
// first item of a segment), and its value. flagged.hpp's operator (f1, v1) . (f2, v2) = (f1 |
// f2, f2 ? v2 : v1 + v2) is associative, so the pairs scan exactly as chapter 02's single-pass
// scan scans numbers: each thread reduces its VT pairs, BlockScan scans the threads, and the
// tile learns the pairs of every tile before it by decoupled look-back (common/device/
// lookback.cuh), in one pass. It is not commutative, and nothing here needs it to be: every
// combination keeps the earlier items on the left. A segment of a million items is shared by
// many tiles, an empty one costs nothing, and the loads and stores are coalesced (warp-striped,
// through shared memory). The price: the segment ids are read beside the values (4 more bytes
// per item: the flags could also come from the offsets by a load-balancing search), and the
// pairs are twice as wide as the values through the block scan and the look-back.
//
// What makes it run at a copy's speed is what made chapter 02's single pass do so: the look-back is
// a fixed cost per tile, and four changes shrink it or hide it.
//   - A large tile (288 x 28 for 4-byte values, 288 x 19 for float64, whose 288 x 28 does not
//     fit; --sweep tries 128, 256, 288 and 384 threads by 7 to 32 items): fewer tiles, so fewer
//     look-backs, each spread over more items, and 28 loads in flight per thread. The keys are
//     transposed through the values' buffer (a warp's slice of keys lies at the start of its slice
//     of values, and each warp is done with one before it starts the other), so the large tile
//     needs 32 KB of shared memory, not 64, and a float64 tile of 288 x 19 (44 KB) fits at all
//     (at 2^26: 0.4672 ms against 0.4776 at 288 x 11, the largest that fitted beside the keys).
//   - Keys first: the keys are loaded and their head flags set before the values are loaded,
//     where the two loads went out together (at 2^26: float32 0.3047 ms with both loads
//     together, 0.2956 keys first, at the same registers, 71 and 72). The warps wait less at the
//     barrier behind the look-back (Nsight Compute, float32 at 2^24: 10.1 cycles of barrier stall
//     per issued instruction against 11.6, DRAM at 69.9 % of peak against 66.0 %).
//   - A packed status: a pair of a flag and an int32 or float sum fits one 64-bit word with the
//     tile's flag (PackedFlaggedStatus), a float64 pair one 16-byte word whose halves both carry
//     the flags (PairedFlaggedStatus), so a predecessor's status is one relaxed load, where the
//     flag, then the value behind a release/acquire pair, cost two dependent round trips to L2
//     (FlaggedTileStatus; at 2^26 float64 0.5619 ms against 0.4757, 0.5867 against 0.4963 at the
//     128 x 19 tile it had before).
//   - A first poll 2500 ns after the tile's aggregate is published: the predecessors have mostly
//     published by then, where polling at once keeps the L2 slice that holds their statuses busy
//     while they try to write them. A predecessor of 288 x 28 items takes longer to load and
//     reduce than chapter 02's tile, so the wait that suits it is longer than chapter 02's 1245 ns
//     (at 2^26: 0.3059 ms at 2500 ns, 0.3131 at 1245, 0.3532 at 5000). A grid of fewer than 3
//     waves (tiles the device holds at once) keeps 1245 ns: there every tile's wait lies on the
//     path to the kernel's end.
// Variant rows (--variants; `2 - change` is this stage with that one change undone) measure each.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithm/lookback.hpp"
#include "algorithm/shared_budget.hpp"
#include "device/block.cuh"
#include "device/lookback.cuh"
#include "device/tile.cuh"
#include "flagged.hpp"
#include "host/device.hpp"
#include "host/dispatch.hpp"
#include "segreduce.cuh"
#include "segscan.hpp"

namespace stepwise::segmented {
namespace {

/// The default tile (kThreads x kItems, or kWideThreads x kWideItems where that does not fit T),
/// and the tile it replaced.
constexpr int kThreads = 288;
constexpr int kItems = 28;
constexpr int kWideThreads = 288;
constexpr int kWideItems = 19;
constexpr int kFirstThreads = 128;
constexpr int kFirstItems = 7;
/// The smallest tile compiled: it sizes the statuses in the workspace.
constexpr int kSmallestTile = 128 * 7;
/// How long a look-back warp sleeps before polling again a predecessor that has published nothing.
constexpr unsigned kBackoffNs = 64;
/// How long the look-back warp sleeps before its first poll on a grid of many waves (a 288 x 28
/// tile takes a predecessor longer to publish than chapter 02's).
constexpr unsigned kFirstPollNs = 2500;
/// The same for short grids: chapter 02's default.
constexpr unsigned kShortFirstPollNs = 1245;
/// Below this many waves (tiles the device holds at once: 396 of 288 x 28 int32 on an H100, 396
/// of 288 x 19 float64) every tile's wait lies on the path to the kernel's end, and the look-back
/// takes the shorter first poll.
constexpr std::uint64_t kManyWaves = 3;

/// The blocks of @p kernel, at @p threads a block, that the current device holds at once.
template <class Kernel>
std::uint64_t resident_blocks(Kernel kernel, int threads) {
  int per_sm = 0;
  STEPWISE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return static_cast<std::uint64_t>(std::max(per_sm, 1)) * static_cast<std::uint64_t>(current_sm_count());
}

/// Whether a tile of @p nt x @p vt items of T fits the static shared memory (the keys share the
/// values' buffer).
template <class T>
constexpr bool fits(int nt, int vt) {
  return tile_fits(static_cast<std::size_t>(nt) * static_cast<std::size_t>(vt), sizeof(T));
}

template <class T>
using Pair = Flagged<Accum<T>>;

/// Stage 2 as it stands: every change on. Each variant row's struct turns one off.
struct AllChanges {
  using Threads = IntList<128, 256, 288, 384>;  ///< the tiles compiled: every shape of the sweep that fits
  using Items = IntList<7, 11, 15, 19, 23, 28, 32>;
  static constexpr bool packed_status = true;  ///< PackedFlaggedStatus (4-byte sums), PairedFlaggedStatus (float64)
  static constexpr unsigned first_poll_ns = kFirstPollNs;             ///< grids of kManyWaves waves or more
  static constexpr unsigned short_first_poll_ns = kShortFirstPollNs;  ///< shorter grids
  static constexpr bool keys_first = true;  ///< the keys loaded and their heads set before the values load
};
/// A variant row runs at the default tile for T only, and compiles no other that fits.
struct Variant : AllChanges {
  using Threads = IntList<kWideThreads, kThreads>;
  using Items = IntList<kWideItems, kItems>;
};
/// `2 - packed status`: FlaggedTileStatus (flag, then value, release/acquire) for every type.
struct WithoutPackedStatus : Variant {
  static constexpr bool packed_status = false;
};
/// `2 - first poll`: the look-back polls as soon as the aggregate is published.
struct WithoutFirstPoll : Variant {
  static constexpr unsigned first_poll_ns = 0;
  static constexpr unsigned short_first_poll_ns = 0;
};
/// `2 - keys first`: the values and the keys loaded together, both live until the heads are set.
struct WithoutKeysFirst : Variant {
  static constexpr bool keys_first = false;
};
/// `2 - large tile`: the 128 x 7 tile it replaced.
struct WithFirstTile : AllChanges {
  using Threads = IntList<kFirstThreads>;
  using Items = IntList<kFirstItems>;
};

/// One tile per block, the tile number a ticket (chapter 02's stage 7): the segment ids loaded
/// warp-striped and moved to thread order, the head flags set, then the values loaded and moved
/// (with KeysFirst false, both loaded at once before either moves), the pairs reduced, scanned over the block and
/// chained by look-back (look_back_and_publish, after
/// @p first_poll_ns, if not 0), then scanned in registers and stored warp-striped.
template <int NT, int VT, bool KeysFirst, class T, class Status>
__global__ void __launch_bounds__(NT)
    segscan_single_pass(const T* __restrict__ values, const std::uint32_t* __restrict__ ids, T* __restrict__ out,
                        std::uint64_t n, unsigned* ticket_counter, Status status, unsigned first_poll_ns) {
  using Op = FlaggedPlus<Accum<T>>;
  using Scan = BlockScan<NT, Op>;
  constexpr int kTile = NT * VT;
  const Op op;
  __shared__ alignas(8) T items[kTile];
  __shared__ typename Scan::Storage scan_storage;
  __shared__ unsigned ticket;
  __shared__ Pair<T> tile_prefix;
  // The keys pass through the values' buffer: a warp's slice of keys lies at the start of its own
  // slice of values (the same bytes for 4-byte values, the first half for 8-byte ones), and a warp
  // finishes one transpose (a __syncwarp) before it starts the next: no warp touches another's.
  std::uint32_t* keys = reinterpret_cast<std::uint32_t*>(items) +
                        tile::warp_slice_begin(threadIdx.x / 32, VT) * (sizeof(T) / sizeof(std::uint32_t) - 1);
  if (threadIdx.x == 0) ticket = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  const std::uint64_t tile = ticket;  // tiles in the order they started: the look-back never waits on an idle one
  const std::uint64_t base = tile * kTile;
  const int count = n - base < kTile ? static_cast<int>(n - base) : kTile;
  const std::uint64_t first = base + static_cast<std::uint64_t>(threadIdx.x) * VT;
  T x[VT];
  bool heads[VT];  // the thread's head flags
  {
    std::uint32_t k[VT];
    if constexpr (KeysFirst) {
      // The keys alone, then the values: the keys are dead (heads set) before the values arrive.
      load_warp_striped<NT, VT>(ids, base, count, 0u, k);
      warp_striped_to_thread_order<NT, VT>(k, keys);
    } else {
      load_warp_striped<NT, VT>(values, base, count, T(0), x);
      load_warp_striped<NT, VT>(ids, base, count, 0u, k);
      warp_striped_to_thread_order<NT, VT>(x, items);
      warp_striped_to_thread_order<NT, VT>(k, keys);
    }
    const std::uint32_t previous = first > 0 && first < n ? ids[first - 1] : 0u;
#pragma unroll
    for (int i = 0; i < VT; ++i)
      heads[i] =
          static_cast<int>(threadIdx.x) * VT + i < count && (first + i == 0 || k[i] != (i == 0 ? previous : k[i - 1]));
  }
  if constexpr (KeysFirst) {
    load_warp_striped<NT, VT>(values, base, count, T(0), x);
    warp_striped_to_thread_order<NT, VT>(x, items);
  }
  Accum<T> v[VT];
  Accum<T> since_head = 0;  // the thread's own sum after its last head
  bool any_head = false;
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    v[i] = static_cast<Accum<T>>(x[i]);  // 0 past the tile's count: load_warp_striped's fill
    since_head = heads[i] ? v[i] : Accum<T>(since_head + v[i]);
    any_head = any_head || heads[i];
  }
  Pair<T> aggregate;
  const Pair<T> thread_prefix =
      Scan::exclusive_scan(Pair<T>{any_head ? 1u : 0u, since_head}, aggregate, scan_storage, op);
  Pair<T> prefix = Op::identity();
  if (tile == 0) {
    if (threadIdx.x == 0) status.publish(0, kTileInclusive, aggregate);
  } else {
    if (threadIdx.x == 0) status.publish(tile, kTileAggregate, aggregate);
    if (threadIdx.x < 32)
      look_back_and_publish(status, tile, aggregate, op, first_poll_ns, kBackoffNs, threadIdx.x == 0, tile_prefix);
    __syncthreads();
    prefix = tile_prefix;
  }
  Accum<T> running = op(prefix, thread_prefix).value;
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    running = heads[i] ? v[i] : Accum<T>(running + v[i]);
    x[i] = to_value<T>(running);
  }
  store_thread_order_by_warp<NT, VT>(out, base, count, x, items);
}

/// Clears the ticket and the statuses, then one block per tile.
/// @tparam Changes AllChanges, or a variant row's struct
template <class T, class Changes = AllChanges>
void launch(const SegScanArgs<T>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  dispatch_tile(shape, typename Changes::Threads{}, typename Changes::Items{}, [&](auto nt, auto vt) {
    constexpr int kNT = decltype(nt)::value;
    constexpr int kVT = decltype(vt)::value;
    static_assert(kNT * kVT >= kSmallestTile, "the workspace holds statuses for tiles of kSmallestTile");
    if constexpr (!fits<T>(kNT, kVT)) {
      throw std::invalid_argument("tile " + describe(shape) + " is not compiled for " + std::to_string(sizeof(T)) +
                                  "-byte values: it does not fit the static shared memory");
    } else {
      const std::uint64_t tiles = ceil_div(args.n, kNT * kVT);
      unsigned* ticket = workspace.carve<unsigned>(0, 1);
      const auto run = [&](auto status, const LookbackLayout& layout) {
        const auto kernel = segscan_single_pass<kNT, kVT, Changes::keys_first, T, decltype(status)>;
        static const std::uint64_t wave =
            resident_blocks(kernel, kNT);  // per instantiation, so timed runs query nothing
        const unsigned first_poll_ns =
            tiles >= kManyWaves * wave ? Changes::first_poll_ns : Changes::short_first_poll_ns;
        STEPWISE_CUDA_CHECK(cudaMemsetAsync(workspace.data(), 0, layout.clear_bytes, stream));
        kernel<<<grid_of(tiles), kNT, 0, stream>>>(args.values, args.segment_ids, args.out, args.n, ticket, status,
                                                   first_poll_ns);
      };
      if constexpr (Changes::packed_status && sizeof(Accum<T>) == 4) {
        const LookbackLayout layout = packed_lookback_layout(tiles);
        run(PackedFlaggedStatus<Pair<T>>{workspace.carve<unsigned long long>(layout.status_offset, tiles)}, layout);
      } else if constexpr (Changes::packed_status) {
        using Status = PairedFlaggedStatus<Pair<T>>;
        const LookbackLayout layout = packed_lookback_layout(tiles, Status::kWordBytes);
        run(Status{workspace.carve<unsigned long long>(layout.status_offset, 2 * tiles)}, layout);
      } else {
        const LookbackLayout layout = lookback_layout(tiles, sizeof(Pair<T>));
        run(FlaggedTileStatus<Pair<T>>{workspace.carve<std::uint32_t>(layout.status_offset, tiles),
                                       workspace.carve<Pair<T>>(layout.aggregates_offset, tiles),
                                       workspace.carve<Pair<T>>(layout.inclusives_offset, tiles)},
            layout);
      }
      STEPWISE_CHECK_LAUNCH();
    }
  });
}

WorkPlan plan(const SegmentStats&, const LaunchShape& shape) { return {WorkUnit::tile, shape.threads, shape.items}; }

/// The shapes --sweep tries: every compiled tile that fits T's shared memory.
template <class T>
std::vector<LaunchShape> compiled_sweep() {
  std::vector<LaunchShape> shapes;
  for (const LaunchShape& shape : tile_grid(AllChanges::Threads{}, AllChanges::Items{}))
    if (fits<T>(shape.threads, shape.items)) shapes.push_back(shape);
  return shapes;
}

}  // namespace

template <class T>
std::size_t single_pass_scan_bytes(std::uint64_t n) {
  const std::uint64_t tiles = ceil_div(n, kSmallestTile);
  return std::max(lookback_layout(tiles, sizeof(Pair<T>)).total_bytes, packed_lookback_layout(tiles, 16).total_bytes);
}

template <class T>
SegScanStage<T> segscan_single_pass() {
  SegScanStage<T> stage;
  stage.name = "single-pass";
  stage.lesson = "a scan of (flag, value) pairs with decoupled look-back: one pass whatever the segments";
  stage.shape = fits<T>(kThreads, kItems) ? LaunchShape{kThreads, kItems} : LaunchShape{kWideThreads, kWideItems};
  stage.sweep = compiled_sweep<T>();
  stage.launch = launch<T>;
  stage.traits.plan = plan;
  stage.variants = {
      variant_of(stage, "packed status", "the flag, then the pair behind release/acquire (FlaggedTileStatus)",
                 launch<T, WithoutPackedStatus>),
      variant_of(stage, "first poll", "the look-back polls as soon as the aggregate is published",
                 launch<T, WithoutFirstPoll>),
      variant_of(stage, "keys first", "the values and the keys loaded together", launch<T, WithoutKeysFirst>),
      variant_of(stage, "large tile", "the 128 x 7 tile", launch<T, WithFirstTile>),
  };
  stage.variants.back().shape = {kFirstThreads, kFirstItems};
  return stage;
}

SEGSCAN_STAGE_ROWS(segscan_single_pass);
SEGMENTED_FOR_EACH_TYPE(STEPWISE_KEYED_FUNCTION, std::size_t, single_pass_scan_bytes, (std::uint64_t));

}  // namespace stepwise::segmented
