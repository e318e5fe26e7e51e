// Stage 1, single pass: run-length encoding as chapter 06's single-pass compaction of the run
// heads, each run's length written as soon as the next run's head is found.
//
// A run starts where a key differs from the key before it: those heads are the flags of a stream
// compaction (chapter 06), and a run's index is the count of heads before it. So each tile loads
// NT x VT keys (coalesced, warp-striped, then to thread order through shared memory), flags its
// heads (the key before each thread's first is read from global memory), counts them per thread,
// scans the counts over the block, and learns the heads of every tile before it by decoupled
// look-back (common/device/lookback.cuh): one read of the keys. A run of a million equal keys
// costs nothing beyond its reads.
//
// The lengths come out of the same pass. A run's length is the next run's start minus its own, so
// the head of run r, at position p, knows the length of run r - 1 as soon as it knows where run
// r - 1 started: the head before it in the tile, or, for a tile's first head, the last head of
// the tiles before. The block scan carries that position beside the count (the pair (heads, last
// head's position), combined by adding the counts and taking the larger position), and so does the
// look-back: both fields are 32 bits (n < 2^32), so the pair and its flags fit one 16-byte status
// (PairedTileStatus, each 8-byte half flagged, so a read of two publications' halves polls again),
// and one warp learns both with one load per predecessor. Two look-backs, a count's and a last
// head's, cost 4-16 % more instructions (Nsight Compute at 2^24: float64 20.0 M against 17.3 M) and
// run at 0.87x-0.93x the stage's speed (`1 - one look-back`). The last tile writes the last run's
// length (n minus its start). Writing each run's start and turning starts into lengths in a
// second kernel instead costs 8 more bytes per run (a start written and read back) and a launch.
//
// The rest is what made chapter 06's compaction fast. The heads are staged in shared memory in
// run order (a key and a position each), so that the keys and lengths go out with consecutive
// threads on consecutive addresses, where each head stored from its own thread scatters its
// writes over a warp's whole slice. The tile is large (288 x 19 for 4-byte keys, 128 x 19 for
// 8-byte keys, whose 288 x 19 tile does not fit; --sweep tries 128, 256, 288 and 384 threads by 7
// to 28 keys): fewer tiles, fewer look-backs. Its 288 threads fill what the registers allow: at 56
// registers a thread or fewer an SM holds 36 warps, four blocks of 9, where blocks of 8 warps would
// stop at 32; the launch bounds ask for those 36 warps (kResidentWarps), and ptxas gives the
// kernel 48 registers where, unasked, it takes 61 and an SM holds three blocks. And the look-back warps sleep 1245 ns
// (chapter 02's delay) before their first poll, so that the predecessors have mostly published by then. Variant rows
// (--variants; `1 - change` is this stage with that one change undone) measure each.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithm/lookback.hpp"
#include "algorithm/shared_budget.hpp"
#include "device/block.cuh"
#include "device/lookback.cuh"
#include "device/thread_ops.hpp"
#include "device/tile.cuh"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "rle.hpp"

namespace stepwise::segmented {
namespace {

/// The default tile (kThreads, or kWideThreads where that does not fit T), and the tile it replaced.
constexpr int kThreads = 288;
constexpr int kWideThreads = 128;
constexpr int kItems = 19;
constexpr int kFirstThreads = 128;
constexpr int kFirstItems = 7;
/// The smallest tile compiled: it sizes the statuses in the workspace.
constexpr int kSmallestTile = 128 * 7;
/// How long a look-back warp sleeps before polling again a predecessor that has published nothing.
constexpr unsigned kBackoffNs = 64;
/// How long the look-back warps sleep before their first poll (chapter 02's default).
constexpr unsigned kFirstPollNs = 1245;
/// The warps a SM the launch bounds ask ptxas to leave room for: 36 for 4-byte keys (four blocks
/// of 288, at most 56 registers a thread), 24 for 8-byte keys (six blocks of 128, at most 85).
template <class T>
constexpr int kResidentWarps = sizeof(T) == 4 ? 36 : 24;

/// Whether a tile of @p nt x @p vt keys of T (and a staged position per key) fits the static
/// shared memory.
template <class T>
constexpr bool fits(int nt, int vt) {
  return tile_fits(static_cast<std::size_t>(nt) * static_cast<std::size_t>(vt), sizeof(T) + sizeof(std::uint32_t));
}

/// The heads among some keys: how many, and the position of the last (0 when there is none: every
/// head but the first key's is at a position above 0, so the larger position is the later head).
struct Heads {
  unsigned count;
  std::uint32_t last;
};

/// Heads of consecutive stretches combined: the counts add, the later last head wins.
struct HeadsPlus {
  using value_type = Heads;
  __device__ static constexpr Heads identity() { return {0u, 0u}; }
  __device__ Heads operator()(const Heads& left, const Heads& right) const {
    return {left.count + right.count, left.last > right.last ? left.last : right.last};
  }
};

/// The last head's position alone, as the second look-back combines it.
struct LastHead {
  using value_type = std::uint32_t;
  __device__ static constexpr std::uint32_t identity() { return 0u; }
  __device__ std::uint32_t operator()(std::uint32_t left, std::uint32_t right) const {
    return left > right ? left : right;
  }
};

/// Stage 1 as it stands: every change on. Each variant row's struct turns one off.
struct AllChanges {
  using Threads = IntList<128, 256, 288, 384>;  ///< the tiles compiled: every shape of the sweep that fits
  using Items = IntList<7, 11, 15, 19, 23, 28>;
  static constexpr bool direct_lengths = true;  ///< lengths from the heads, no starts array
  static constexpr bool staged_stores = true;   ///< heads staged in shared memory, stored coalesced
  static constexpr unsigned first_poll_ns = kFirstPollNs;
  static constexpr bool one_look_back = true;  ///< (count, last head) pairs by one look-back, not two
};
/// A variant row runs at the default tile only, and compiles no other (either thread count: the
/// default for T is the one that fits).
struct Variant : AllChanges {
  using Threads = IntList<kWideThreads, kThreads>;
  using Items = IntList<kItems>;
};
/// `1 - direct lengths`: each run's start written, a second kernel turns the starts into lengths.
struct WithoutDirectLengths : Variant {
  static constexpr bool direct_lengths = false;
};
/// `1 - staged stores`: each head stores its key and length from the thread that found it.
struct WithoutStagedStores : Variant {
  static constexpr bool staged_stores = false;
};
/// `1 - first poll`: the look-backs poll as soon as the aggregates are published.
struct WithoutFirstPoll : Variant {
  static constexpr unsigned first_poll_ns = 0;
};
/// `1 - one look-back`: two look-backs, warp 0 for the count of runs, warp 1 for the last head.
struct WithTwoLookBacks : Variant {
  static constexpr bool one_look_back = false;
};
/// `1 - large tile`: the 128 x 7 tile it replaced.
struct WithFirstTile : AllChanges {
  using Threads = IntList<kFirstThreads>;
  using Items = IntList<kFirstItems>;
};

/// One tile per block, the tile number a ticket: the heads found, counted and scanned with the
/// last head's position, the runs and the last head before the tile learned by two look-backs
/// (warps 0 and 1, each a look_back_and_publish), then each head's key and the length of the run
/// before it stored (with Changes::direct_lengths; else each head's position, into @p lengths as
/// the starts). The last tile writes the run count and the last run's length.
/// @tparam Changes AllChanges, or a variant row's struct
template <int NT, int VT, class Changes, class T>
__global__ void __launch_bounds__(NT, kResidentWarps<T> * 32 / NT > 0 ? kResidentWarps<T> * 32 / NT : 1)
    rle_single_pass(const T* __restrict__ keys, std::uint64_t n, T* __restrict__ unique,
                    std::uint32_t* __restrict__ lengths, std::int64_t* __restrict__ runs, unsigned* ticket_counter,
                    PackedCountStatus run_status, PackedTileStatus<std::uint32_t> last_status,
                    PairedTileStatus<Heads> heads_status) {
  using Scan = BlockScan<NT, HeadsPlus>;
  constexpr int kTile = NT * VT;
  const HeadsPlus op;
  __shared__ alignas(8) T items[kTile];  // the transpose, then the tile's run keys in run order
  __shared__ std::uint32_t starts[Changes::staged_stores ? kTile : 1];  // the tile's run starts in run order
  __shared__ typename Scan::Storage scan_storage;
  __shared__ unsigned ticket;
  __shared__ unsigned long long tile_runs;
  __shared__ std::uint32_t tile_last;
  __shared__ Heads tile_heads;
  if (threadIdx.x == 0) ticket = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  const std::uint64_t tile = ticket;
  const std::uint64_t base = tile * kTile;
  const int count = n - base < kTile ? static_cast<int>(n - base) : kTile;
  T x[VT];
  load_warp_striped<NT, VT>(keys, base, count, T(0), x);
  warp_striped_to_thread_order<NT, VT>(x, items);
  const std::uint64_t first = base + static_cast<std::uint64_t>(threadIdx.x) * VT;
  const T previous = first > 0 && first < n ? keys[first - 1] : x[0];
  bool head[VT];
  Heads mine = HeadsPlus::identity();
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    head[i] =
        static_cast<int>(threadIdx.x) * VT + i < count && (first + i == 0 || x[i] != (i == 0 ? previous : x[i - 1]));
    if (head[i]) mine = {mine.count + 1, static_cast<std::uint32_t>(first + i)};
  }
  Heads aggregate;
  const Heads thread_prefix = Scan::exclusive_scan(mine, aggregate, scan_storage, op);
  if constexpr (Changes::one_look_back) {
    // One warp looks back for the (runs, last head) pair before the tile: a 16-byte status.
    if (tile == 0) {
      if (threadIdx.x == 0) {
        heads_status.publish(0, kTileInclusive, aggregate);
        tile_heads = HeadsPlus::identity();
      }
    } else if (threadIdx.x < 32) {
      const bool leader = threadIdx.x == 0;
      if (leader) heads_status.publish(tile, kTileAggregate, aggregate);
      look_back_and_publish(heads_status, tile, aggregate, op, Changes::first_poll_ns, kBackoffNs, leader, tile_heads);
    }
  } else if (tile == 0) {
    if (threadIdx.x == 0) {
      run_status.publish(0, kTileInclusive, aggregate.count);
      last_status.publish(0, kTileInclusive, aggregate.last);
      tile_runs = 0;
      tile_last = 0;
    }
  } else if (threadIdx.x < 64) {
    // Warp 0 looks back for the runs before the tile, warp 1 for the last head before it; each
    // publishes its own status, so that its inclusive prefix never races its own aggregate.
    const bool leader = threadIdx.x % 32 == 0;
    if (threadIdx.x < 32) {
      if (leader) run_status.publish(tile, kTileAggregate, aggregate.count);
      look_back_and_publish(run_status, tile, aggregate.count, Plus<unsigned long long>{}, Changes::first_poll_ns,
                            kBackoffNs, leader, tile_runs);
    } else {
      if (leader) last_status.publish(tile, kTileAggregate, aggregate.last);
      look_back_and_publish(last_status, tile, aggregate.last, LastHead{}, Changes::first_poll_ns, kBackoffNs, leader,
                            tile_last);
    }
  }
  __syncthreads();  // every warp is done with its transpose: items is free for the staging
  const unsigned long long runs_before = Changes::one_look_back ? tile_heads.count : tile_runs;
  const std::uint32_t last_before = Changes::one_look_back ? tile_heads.last : tile_last;
  if constexpr (Changes::staged_stores) {
    unsigned slot = thread_prefix.count;
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (head[i]) {
        items[slot] = x[i];
        starts[slot] = static_cast<std::uint32_t>(first + i);
        ++slot;
      }
    __syncthreads();
    for (unsigned j = threadIdx.x; j < aggregate.count; j += NT) {
      const unsigned long long run = runs_before + j;
      unique[run] = items[j];
      if constexpr (Changes::direct_lengths) {
        if (run > 0) lengths[run - 1] = starts[j] - (j > 0 ? starts[j - 1] : last_before);
      } else {
        lengths[run] = starts[j];
      }
    }
  } else {
    unsigned long long run = runs_before + thread_prefix.count;
    std::uint32_t before = LastHead{}(last_before, thread_prefix.last);  // the head before this thread's first
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (head[i]) {
        const auto start = static_cast<std::uint32_t>(first + i);
        unique[run] = x[i];
        if constexpr (Changes::direct_lengths) {
          if (run > 0) lengths[run - 1] = start - before;
          before = start;
        } else {
          lengths[run] = start;
        }
        ++run;
      }
  }
  if (threadIdx.x == 0 && base + count == n) {
    const unsigned long long total = runs_before + aggregate.count;
    *runs = static_cast<std::int64_t>(total);
    if (Changes::direct_lengths && total > 0)
      lengths[total - 1] = static_cast<std::uint32_t>(n - LastHead{}(last_before, aggregate.last));
  }
}

/// counts[r] = the next run's start (n after the last) minus run r's.
__global__ void run_lengths(const std::uint32_t* __restrict__ starts, const std::int64_t* __restrict__ runs,
                            std::uint32_t* __restrict__ counts, std::uint64_t n) {
  const std::uint64_t r = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t total = static_cast<std::uint64_t>(*runs);
  if (r >= total) return;
  const std::uint64_t next = r + 1 < total ? starts[r + 1] : n;
  counts[r] = static_cast<std::uint32_t>(next - starts[r]);
}

/// Clears the ticket and both statuses, then one block per tile (and, without direct lengths, the
/// lengths kernel).
/// @tparam Changes AllChanges, or a variant row's struct
template <class T, class Changes = AllChanges>
void launch(const RleArgs<T>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  dispatch_tile(shape, typename Changes::Threads{}, typename Changes::Items{}, [&](auto nt, auto vt) {
    constexpr int kNT = decltype(nt)::value;
    constexpr int kVT = decltype(vt)::value;
    static_assert(kNT * kVT >= kSmallestTile, "the workspace holds statuses for tiles of kSmallestTile");
    static_assert(kNT >= 64, "warps 0 and 1 look back");
    if constexpr (!fits<T>(kNT, kVT)) {
      throw std::invalid_argument("tile " + describe(shape) + " is not compiled for " + std::to_string(sizeof(T)) +
                                  "-byte keys: it does not fit the static shared memory");
    } else {
      const std::uint64_t tiles = ceil_div(args.n, kNT * kVT);
      const LookbackLayout layout = packed_lookback_layout(2 * tiles);  // the runs' statuses, then the last heads'
      unsigned* ticket = workspace.carve<unsigned>(0, 1);
      unsigned long long* words = workspace.carve<unsigned long long>(layout.status_offset, 2 * tiles);
      const PackedCountStatus run_status{words};
      const PackedTileStatus<std::uint32_t> last_status{words + tiles};
      // The same words seen either way: one look-back's 16-byte pairs, or two look-backs' 8-byte words.
      const PairedTileStatus<Heads> heads_status{words};
      std::uint32_t* lengths = args.counts;
      if constexpr (!Changes::direct_lengths)
        lengths = workspace.carve<std::uint32_t>(aligned_bytes(layout.total_bytes), args.n);  // the starts
      STEPWISE_CUDA_CHECK(cudaMemsetAsync(workspace.data(), 0, layout.clear_bytes, stream));
      rle_single_pass<kNT, kVT, Changes><<<grid_of(tiles), kNT, 0, stream>>>(
          args.keys, args.n, args.unique, lengths, args.runs, ticket, run_status, last_status, heads_status);
      STEPWISE_CHECK_LAUNCH();
      if constexpr (!Changes::direct_lengths) {
        constexpr int kLengthThreads = 256;
        run_lengths<<<grid_of(ceil_div(args.n, kLengthThreads)), kLengthThreads, 0, stream>>>(lengths, args.runs,
                                                                                              args.counts, args.n);
        STEPWISE_CHECK_LAUNCH();
      }
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
std::size_t rle_single_pass_bytes(std::uint64_t n) {
  return aligned_bytes(packed_lookback_layout(2 * ceil_div(n, kSmallestTile)).total_bytes) +
         aligned_bytes(n * sizeof(std::uint32_t));
}

template <class T>
RleStage<T> rle_single_pass() {
  RleStage<T> stage;
  stage.name = "single-pass";
  stage.lesson =
      "compaction of the run heads in one pass with decoupled look-back, each length written at the next head";
  stage.shape = {fits<T>(kThreads, kItems) ? kThreads : kWideThreads, kItems};
  stage.sweep = compiled_sweep<T>();
  stage.launch = launch<T>;
  stage.traits.plan = plan;
  stage.variants = {
      variant_of(stage, "direct lengths", "each run's start written, then a second kernel for the lengths",
                 launch<T, WithoutDirectLengths>),
      variant_of(stage, "staged stores", "each head's key and length stored by the thread that found it",
                 launch<T, WithoutStagedStores>),
      variant_of(stage, "first poll", "the look-backs poll as soon as the aggregates are published",
                 launch<T, WithoutFirstPoll>),
      variant_of(stage, "one look-back", "two look-backs: warp 0's for the runs, warp 1's for the last head",
                 launch<T, WithTwoLookBacks>),
      variant_of(stage, "large tile", "the 128 x 7 tile", launch<T, WithFirstTile>),
  };
  stage.variants.back().shape = {kFirstThreads, kFirstItems};
  return stage;
}

RLE_STAGE_ROWS(rle_single_pass);
SEGMENTED_FOR_EACH_TYPE(STEPWISE_KEYED_FUNCTION, std::size_t, rle_single_pass_bytes, (std::uint64_t));

}  // namespace stepwise::segmented
