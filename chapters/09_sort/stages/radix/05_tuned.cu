// Radix stage 5, tuned Onesweep: the tile publishes its digit counts before it ranks, each warp
// ranks its own slice of the tile without block barriers, and tiles are larger.
//
// Changed from stage 4, four things, each a variant row that undoes it:
// - Early counts. Stage 4 publishes a tile's count of each digit only after the whole tile is
//   ranked, so the next tile's look-back waits on this tile's ranking and the chain of tiles
//   moves at the speed of ranking. Here the tile counts its digits with shared-memory atomics
//   right after the load and publishes them at once: the tiles behind it find its count while it
//   is still ranking, and by the time this tile looks back (after its own ranking) its
//   predecessors have usually published their inclusive counts.
// - Warp ranking in one sweep. Stage 4 ranks VT rounds of NT keys, each round four block
//   barriers and a walk over the warps per digit. Here warp w loads its own contiguous slice of
//   32 x VT keys (32 lanes, consecutive addresses: coalesced), and ranks them in order with
//   __match_any_sync and one counter per warp and digit that only that warp touches: no barrier
//   at all. One walk over the warps per digit (thread d) then turns the warps' counts into
//   where each warp's keys of digit d start in the tile: a handful of barriers per tile, however
//   many keys a thread holds.
// - Bigger tiles. Stage 4's tile is 256 x 8 keys; a digit's run within a tile is then about 8
//   keys, so most stores of the write-out fill part of a 32-byte sector. With 256 x 16 or
//   384 x 16 keys the runs are two or three times as long, the per-tile costs (ticket, look-back,
//   barriers) are paid for twice as many keys, and there are fewer statuses to clear and walk.
//   Each key size has its own tile (8-byte keys fill shared memory sooner), one of --sweep's.
// - Three blocks per SM. Left to itself the compiler gives the pass kernel of the default tile
//   75 (4-byte keys, 384 threads) or 100 (8-byte keys, 256 threads) registers a thread, so two
//   blocks fit an SM. A tile spends much of its time waiting: on its loads, on barriers, on the
//   look-back of its predecessors. __launch_bounds__ asks for three blocks, a third more warps
//   to cover those waits; the price is a few spilled registers (16 to 48 bytes of stack a
//   thread), and the variant row (two blocks, as the compiler chose) weighs the two.
// The histogram kernel and the digit starts are stage 4's; the write-out is stage 4's too: the
// tile sorted by digit in shared memory, then written with consecutive threads on consecutive
// places of a digit's run. Values are loaded only when the keys' places are known, and go
// through the same shared memory after the keys.
#include <cuda/atomic>

#include "algorithm/lookback.hpp"
#include "device/lookback.cuh"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "radix.cuh"

namespace stepwise::sort {
namespace {

constexpr int kRadix = kOnesweepRadix;
constexpr int kBits = kOnesweepBits;
constexpr unsigned kBackoffNs = 64;
constexpr int kHistogramBlocksPerSm = 4;
constexpr int kStaticSharedBytes = 48 * 1024;

using Threads = IntList<256, 384>;
using Items = IntList<8, 12, 16, 20, 24>;

/// The shared memory of one tile. The per-warp digit counters (or stage 4's round counters, in
/// the variant without warp ranking) are dead once every key knows its place in the tile, so the
/// staging area of the sorted tile reuses their bytes.
template <int NT, int VT, class K>
struct TunedStorage {
  static constexpr int kWarps = NT / 32;
  union {
    unsigned warp_counts[kWarps][kRadix];  ///< keys of each digit in each warp, then where they start
    typename TileDigitRanks<NT, kRadix>::Storage rounds;
    K keys[NT * VT];
    Value values[NT * VT];
  } tile;
  typename BlockScan<NT, Plus<unsigned>>::Storage scan;
  unsigned histogram[kRadix];              ///< the tile's count of each digit (the early counts)
  unsigned tile_start[kRadix];             ///< the tile's keys of smaller digits
  unsigned long long output_base[kRadix];  ///< output place of the digit's local place 0
  unsigned ticket;
};

/// Whether a tile of NT x VT keys of type K fits the static shared memory of a block.
template <int NT, int VT, class K>
constexpr bool kFits = sizeof(TunedStorage<NT, VT, K>) <= kStaticSharedBytes;

/// Blocks per SM that tuned_pass asks the compiler to fit, through __launch_bounds__'s second
/// argument. For tiles of up to 16 keys a thread: three (kOccupancy), a budget of 65536 / (3 x NT)
/// registers a thread, 56 at 384 threads and 85 at 256; or two (the variant), which is what the
/// compiler chose by itself for the default tiles (75 registers for 384 x 16 four-byte keys, 100
/// for 256 x 16 eight-byte keys). Larger tiles need more registers: one.
template <int NT, int VT, bool kOccupancy>
constexpr int kPassBlocks = VT > 16      ? 1
                            : kOccupancy ? 3
                                         : 2;

/// One digit pass. kEarly: publish the tile's counts before ranking (else after, as stage 4).
/// kWarpRank: warp-striped load and one ranking sweep per warp (else stage 4's rounds of NT
/// consecutive keys, TileDigitRanks).
template <int NT, int VT, class K, bool kEarly, bool kWarpRank, bool kOccupancy>
__global__ void __launch_bounds__(NT, (kPassBlocks<NT, VT, kOccupancy>))
    tuned_pass(const K* __restrict__ keys_in, const Value* __restrict__ values_in, K* __restrict__ keys_out,
               Value* __restrict__ values_out, std::size_t n, int shift,
               const unsigned long long* __restrict__ digit_starts, unsigned* ticket_counter,
               PackedCountStatus status) {
  static_assert(kRadix <= NT, "one thread per digit publishes and looks back");
  using Storage = TunedStorage<NT, VT, K>;
  constexpr int kWarps = Storage::kWarps;
  constexpr int kTile = NT * VT;
  __shared__ Storage storage;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;

  for (int i = threadIdx.x; i < kRadix; i += NT) storage.histogram[i] = 0;
  if (kWarpRank)
    for (int i = threadIdx.x; i < kWarps * kRadix; i += NT) (&storage.tile.warp_counts[0][0])[i] = 0;
  if (threadIdx.x == 0) storage.ticket = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  const std::size_t tile_index = storage.ticket;
  const std::size_t first = tile_index * kTile;
  const int tile_count = static_cast<int>(n - first < static_cast<std::size_t>(kTile) ? n - first : kTile);
  // Key j of this thread: warp-striped (the warp's own slice, lanes side by side) or, without
  // warp ranking, block-striped rounds of NT keys as in stage 4. Either way the keys are ranked
  // in input order.
  const auto local_of = [&](int j) { return kWarpRank ? warp * 32 * VT + j * 32 + lane : j * NT + threadIdx.x; };

  K key[VT];
  unsigned d[VT];
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    const int local = local_of(j);
    const bool valid = local < tile_count;
    key[j] = valid ? keys_in[first + local] : K{};
    d[j] = valid ? digit(ordered_bits(key[j]), shift, kBits) : kRadix;
  }
#pragma unroll
  for (int j = 0; j < VT; ++j)
    if (d[j] < kRadix) atomicAdd(&storage.histogram[d[j]], 1u);
  __syncthreads();

  const unsigned digit_value = threadIdx.x;  // thread d < kRadix publishes and looks back for digit d
  const bool digit_thread = digit_value < kRadix;
  const unsigned count = digit_thread ? storage.histogram[digit_value] : 0u;
  const std::size_t entry = tile_index * kRadix + digit_value;
  if (kEarly && digit_thread) status.publish(entry, tile_index == 0 ? kTileInclusive : kTileAggregate, count);
  unsigned total = 0;
  const unsigned start = BlockScan<NT, Plus<unsigned>>::exclusive_scan(count, total, storage.scan, Plus<unsigned>{});
  if (digit_thread) storage.tile_start[digit_value] = start;

  unsigned place[VT];  // each key's place in the tile sorted by digit
  if constexpr (kWarpRank) {
    unsigned* counters = storage.tile.warp_counts[warp];
#pragma unroll
    for (int j = 0; j < VT; ++j) {
      const unsigned peers = __match_any_sync(kFullWarp, d[j]);
      const int leader = __ffs(peers) - 1;
      unsigned before = 0;
      if (lane == leader && d[j] < kRadix) {
        before = counters[d[j]];
        counters[d[j]] = before + __popc(peers);
      }
      place[j] = __shfl_sync(kFullWarp, before, leader) + __popc(peers & lanes_below());
      __syncwarp();  // the next key's leader reads what this one's wrote
    }
    __syncthreads();
    if (digit_thread) {
      unsigned running = start;
#pragma unroll
      for (int w = 0; w < kWarps; ++w) {
        const unsigned warp_count = storage.tile.warp_counts[w][digit_value];
        storage.tile.warp_counts[w][digit_value] = running;
        running += warp_count;
      }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < VT; ++j)
      if (d[j] < kRadix) place[j] += storage.tile.warp_counts[warp][d[j]];
  } else {
    __syncthreads();  // tile_start
    TileDigitRanks<NT, kRadix>::begin(storage.tile.rounds);
#pragma unroll
    for (int j = 0; j < VT; ++j) {
      const unsigned rank = TileDigitRanks<NT, kRadix>::rank(d[j], storage.tile.rounds);
      place[j] = d[j] < kRadix ? storage.tile_start[d[j]] + rank : 0u;
    }
  }
  if (!kEarly && digit_thread) status.publish(entry, tile_index == 0 ? kTileInclusive : kTileAggregate, count);
  __syncthreads();  // the counters are dead: the staging area takes their place

  // The look-back of each digit overlaps the other threads' stores into shared memory.
#pragma unroll
  for (int j = 0; j < VT; ++j)
    if (d[j] < kRadix) storage.tile.keys[place[j]] = key[j];
  if (digit_thread) {
    const unsigned long long before = look_back_column(status, entry, kRadix, kBackoffNs);
    if (tile_index != 0) status.publish(entry, kTileInclusive, before + count);
    storage.output_base[digit_value] = digit_starts[digit_value] + before - start;
  }
  __syncthreads();
  unsigned out_digit[VT];
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const int local = i * NT + threadIdx.x;
    out_digit[i] = 0;
    if (local < tile_count) {
      const K sorted = storage.tile.keys[local];
      out_digit[i] = digit(ordered_bits(sorted), shift, kBits);
      keys_out[storage.output_base[out_digit[i]] + local] = sorted;
    }
  }
  if (values_in == nullptr) return;
  Value value[VT];
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    const int local = local_of(j);
    value[j] = local < tile_count ? values_in[first + local] : 0;
  }
  __syncthreads();  // every key is read out of the staging area
#pragma unroll
  for (int j = 0; j < VT; ++j)
    if (d[j] < kRadix) storage.tile.values[place[j]] = value[j];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const int local = i * NT + threadIdx.x;
    if (local < tile_count) values_out[storage.output_base[out_digit[i]] + local] = storage.tile.values[local];
  }
}

/// Enqueues the sort: the histogram of every pass, the digit starts, then per pass the status
/// clear and tuned_pass<NT, VT, K, kEarly, kWarpRank, kOccupancy>.
template <int NT, int VT, class K, bool kEarly, bool kWarpRank, bool kOccupancy>
void run_passes(const SortArgs<K>& args, Workspace& workspace, cudaStream_t stream) {
  const SortScratch<K> scratch = carve_scratch(workspace, args);
  constexpr int kPasses = (kKeyBits<K> + kBits - 1) / kBits;
  const std::size_t tiles = ceil_div(args.n, static_cast<std::size_t>(NT) * VT);
  const std::size_t histogram_bytes = aligned_bytes(kPasses * kRadix * sizeof(unsigned long long));
  const LookbackLayout layout = packed_lookback_layout(tiles * kRadix);
  if (histogram_bytes + layout.total_bytes > scratch.rest_bytes)
    throw std::invalid_argument("tuned onesweep: the workspace has too few statuses for " + std::to_string(tiles) +
                                " tiles");
  auto* histograms = reinterpret_cast<unsigned long long*>(scratch.rest);
  unsigned char* lookback = scratch.rest + histogram_bytes;
  auto* ticket_counter = reinterpret_cast<unsigned*>(lookback);
  const PackedCountStatus status{reinterpret_cast<unsigned long long*>(lookback + layout.status_offset)};
  if (args.n == 0) return;
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(histograms, 0, histogram_bytes, stream));
  const LaunchShape histogram_shape{kRadix, 0, kHistogramBlocksPerSm};
  count_all_digits<kRadix><<<resident_grid(histogram_shape), kRadix, 0, stream>>>(args.keys_in, args.n, histograms);
  STEPWISE_CHECK_LAUNCH();
  scan_digit_starts<kRadix><<<kPasses, kRadix, 0, stream>>>(histograms);
  STEPWISE_CHECK_LAUNCH();
  const unsigned grid = grid_of(tiles);
  for_each_pass(args, scratch, kPasses, stream,
                [&](const K* keys_in, const Value* values_in, K* keys_out, Value* values_out, int pass) {
                  STEPWISE_CUDA_CHECK(cudaMemsetAsync(lookback, 0, layout.clear_bytes, stream));
                  tuned_pass<NT, VT, K, kEarly, kWarpRank, kOccupancy><<<grid, NT, 0, stream>>>(
                      keys_in, values_in, keys_out, values_out, args.n, pass * kBits,
                      histograms + static_cast<std::size_t>(pass) * kRadix, ticket_counter, status);
                  STEPWISE_CHECK_LAUNCH();
                });
}

/// The default tile per key size, one of tile_shapes(); --sweep times the others.
template <class K>
constexpr LaunchShape default_shape() {
  return sizeof(K) == 4 ? LaunchShape{384, 16, 0} : LaunchShape{256, 16, 0};
}

/// Every compiled (threads, items) shape whose tile fits shared memory for keys of type K.
template <class K>
std::vector<LaunchShape> tile_shapes() {
  std::vector<LaunchShape> shapes;
  for (const LaunchShape& shape : tile_grid(Threads{}, Items{})) {
    bool fits = false;
    dispatch_tile(shape, Threads{}, Items{},
                  [&](auto nt, auto vt) { fits = kFits<decltype(nt)::value, decltype(vt)::value, K>; });
    if (fits) shapes.push_back(shape);
  }
  return shapes;
}

/// The stage's launcher, at every shape of tile_shapes() (kAllShapes) or only at the default
/// shape (the variants that undo early counts, warp ranking or the occupancy bound).
template <class K, bool kEarly, bool kWarpRank, bool kOccupancy, bool kAllShapes>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  if constexpr (kAllShapes) {
    dispatch_tile(shape, Threads{}, Items{}, [&](auto nt, auto vt) {
      constexpr int NT = decltype(nt)::value;
      constexpr int VT = decltype(vt)::value;
      if constexpr (kFits<NT, VT, K>)
        run_passes<NT, VT, K, kEarly, kWarpRank, kOccupancy>(args, workspace, stream);
      else
        throw std::invalid_argument("tuned onesweep: a tile of " + std::to_string(NT) + " x " + std::to_string(VT) +
                                    " keys does not fit shared memory");
    });
  } else {
    constexpr LaunchShape kDefault = default_shape<K>();
    if (shape.threads != kDefault.threads || shape.items != kDefault.items)
      throw std::invalid_argument("tuned onesweep variants run at the stage's default shape only, " +
                                  describe(kDefault));
    run_passes<kDefault.threads, kDefault.items, K, kEarly, kWarpRank, kOccupancy>(args, workspace, stream);
  }
}

}  // namespace

template <class K>
SortStage<K> radix_tuned() {
  SortStage<K> stage;
  stage.name = "tuned";
  stage.lesson =
      "counts published before ranking, each warp ranks its own slice with no barrier, bigger tiles, three blocks "
      "per SM";
  stage.shape = default_shape<K>();
  stage.sweep = tile_shapes<K>();
  stage.launch = launch<K, true, true, true, true>;
  stage.traits.algorithm = Algorithm::radix;
  stage.traits.digit_bits = kBits;
  stage.traits.key_reads_per_pass = 1.0;  // the pass kernel
  stage.traits.key_reads_per_sort = 1.0;  // the histogram kernel
  stage.traits.key_writes_per_pass = 1.0;
  stage.traits.launches_per_pass = 2;  // the status clear and the pass kernel
  stage.traits.launches_per_sort = 3;  // the histogram clear, the histogram kernel, the scan of the digit starts
  stage.variants = {
      variant_of(stage, "early counts", "the tile publishes its digit counts only once it is ranked, as stage 4",
                 launch<K, false, true, true, false>),
      variant_of(stage, "warp ranking", "stage 4's ranking: block-striped rounds of NT keys, four barriers per round",
                 launch<K, true, false, true, false>),
      variant_of(stage, "tile", "stage 4's tile, 256 x 8 keys", launch<K, true, true, true, true>),
      variant_of(stage, "occupancy", "registers left to the compiler: two blocks of the default tile per SM, not three",
                 launch<K, true, true, false, false>),
  };
  stage.variants[2].shape = LaunchShape{256, 8, 0};  // the tile row
  return stage;
}

SORT_STAGE_ROWS(radix_tuned);

}  // namespace stepwise::sort
