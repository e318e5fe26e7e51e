// Radix stage 5, tuned Onesweep: each warp counts the digits of its own slice of the tile into
// its own counters, then ranks the slice with no barrier between keys; the tile publishes its
// digit counts before it looks back; the look-back reads several predecessors at once; tiles
// are larger; the write-out takes a pointer per digit; and the histogram kernel reads 16 bytes
// at a time into several histograms.
//
// Changed from stage 4, eleven things, each a variant row that undoes it:
// - Warp counts. Warp w loads its own contiguous slice of 32 x VT keys (32 lanes, consecutive
//   addresses: coalesced) and adds each key's digit to the warp's own counter of it (256
//   counters a warp, touched by no other warp), one shared atomic per key; the compiler merges
//   the lanes of one atomic instruction that add to the same counter (ATOMS.POPC.INC). One walk
//   over the warps per digit (thread d) then gives both the tile's count of digit d and where
//   each warp's keys of digit d start in the sorted tile, and a second sweep over the slice, in
//   input order, ranks each key: the lanes holding the same digit find each other (below), one
//   of them adds their number to the warp's counter of that digit, and a key's place is the
//   counter before the add plus its peers below it. This is cub::BlockRadixRankMatchEarlyCounts'
//   scheme. The variant counts with block-wide atomics on one shared histogram, where the keys
//   of all twelve warps meet on the same 256 counters: the short-scoreboard stalls (warps
//   waiting on shared memory) that Nsight Compute shows.
// - Counts first. The variant ranks in the counting sweep and completes each place by a second
//   look at the counters once the warps' starts are known; until then the place register holds
//   the key's digit in its high half and its rank in its warp below, so that no register array
//   holds the digits. Counting first costs an atomic per key, about five instructions with its
//   digit, and saves the packing, the unpacking and the second look: the kernel's code is 64
//   instructions shorter at 384 x 16 (1,480 against 1,544).
// - PTX votes. A key's peers (the lanes of its warp with the same digit) are eight votes, one
//   per digit bit, each lane ANDing the ballot or its complement. Written in C++
//   (peers_by_bit_ballots in common/device/warp_aggregate.cuh) the compiler computes each bit
//   twice, as the vote's predicate and as an all-ones-or-zero mask for the complement; written
//   in PTX as CUB writes it (peers_by_bit_votes), it tests the digit's bits into predicates with
//   one instruction and each bit costs three: the vote, a not under the predicate, an and. The
//   highest peer leads (31 - clz is one instruction, ffs two) and adds the peers' number with one
//   shared atomic that returns the count before it, where the variant's lowest peer reads the
//   counter, writes it and waits at a __syncwarp. The variant's code is 488 instructions longer
//   at 384 x 16 (1,968), 30 a key.
// - Votes, not the match instruction. Stage 4 finds the peers with __match_any_sync, a long
//   multi-cycle instruction whose result the warp waits for (short-scoreboard stalls); the
//   eight votes issue back to back. The variant row keeps __match_any_sync.
// - Early counts. Stage 4 publishes a tile's count of each digit only once every key knows its
//   place. Here thread d publishes the moment the walk has summed the warps, before the scan of
//   the counts and the look-back: the tiles behind find it sooner.
// - Warp ranking. Stage 4 ranks VT rounds of NT keys, each round four block barriers and a walk
//   over the warps per digit; the sweeps above need a handful of barriers per tile, however many
//   keys a thread holds. (This variant counts with the shared histogram too.)
// - Bigger tiles. Stage 4's tile is 256 x 8 keys; a digit's run within a tile is then about 8
//   keys, so most stores of the write-out fill part of a 32-byte sector. With 384 x 19 keys of
//   4 bytes or 256 x 19 of 8 bytes the runs are 3.6 or 2.4 times as long, the per-tile costs
//   (ticket, look-back, barriers) are paid for more keys, and there are fewer statuses to clear
//   and walk. Each key size has its own tile, the fastest of --sweep's (384 x 19 is
//   cub::DeviceRadixSort's tile for 4-byte keys on sm_90).
// - The look-back window. Stage 4's look-back reads one predecessor, waits for its load, adds
//   it, and only then reads the next: a walk of k predecessors is k loads one after another,
//   each a trip to L2, while the tile's other warps wait at the barrier behind it. Here each
//   step of a keys-only pass reads four predecessors at once (look_back_column<4>) and adds them
//   nearest first, so the walk waits for about k / 4 loads. With values the one-step walk
//   measured faster and stays (kLookBackWindow; the variant row swaps the two).
// - Direct write-out. Each digit's thread stores, once per tile, a pointer to where the digit's
//   local place 0 goes in the output (key_out_at); each key's store is then that pointer plus
//   its place in the sorted tile, with no 64-bit add, and every tile but the last (the only one
//   that can be partial) writes with no bounds test. The variant row writes as stage 4.
// - Three blocks per SM for keys, two for pairs. Given room for two blocks, the compiler takes 64
//   registers a thread for the default tile of 4-byte keys (80 with values), so two blocks fit
//   an SM. A tile spends much of its time waiting: on its loads, on barriers, on the look-back
//   of its predecessors. For keys alone __launch_bounds__ asks for three blocks, 56 registers a
//   thread, a half more warps to cover those waits. At 56 registers the keys-only kernels of the
//   default tile spill nothing (`ptxas -v`: 0 bytes stack frame). With values the squeeze costs
//   more than the warps give (one register spilled and more instructions a key): on an H100 2^26
//   uint32 pairs took 2.3151 ms at two blocks against 2.6280 at three, 2^26 uint64 pairs 6.7272
//   against 7.3652. The variant row swaps the two counts, so that it weighs them for either sort. The second sweep
//   reads each key's digit through an empty asm statement, so that the compiler recomputes it rather than keeping the
//   counting sweep's VT counter addresses in registers across the barriers (at 384 x 19 those spilled 144 bytes). Sorts
//   of keys and of pairs run different instantiations of the pass kernel (kPairs), so that the keys-only kernel does
//   not hold the keys' places in registers after the keys are written.
// - The histogram kernel. Stage 4's reads one key at a time and adds each digit to one shared
//   histogram per block; this one reads 16 bytes at a time (two loads in flight) and gives
//   each block four histograms, lane l adding to copy l % 4, so that fewer lanes of one atomic
//   instruction meet on the same counter. The variant row runs stage 4's.
// The digit starts are stage 4's, and so is the order of the write-out: the tile sorted by digit
// in shared memory, then written with consecutive threads on consecutive places of a digit's
// run. Values are loaded only once the keys are written, each straight into its place in the
// same shared memory. Loading full tiles with no bounds test too measured no faster on an H100
// (NOTES.md), so the load keeps its test.
#include <cuda/atomic>

#include "algorithm/lookback.hpp"
#include "device/lookback.cuh"
#include "device/warp_aggregate.cuh"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "radix.cuh"
#include "radix_passes.cuh"

namespace stepwise::sort {
namespace {

constexpr int kRadix = kOnesweepRadix;
constexpr int kBits = kOnesweepBits;
constexpr unsigned kBackoffNs = 64;
constexpr int kHistogramThreads = 256;
constexpr int kHistogramBlocksPerSm = 4;
constexpr int kHistogramCopies = 4;
constexpr int kStaticSharedBytes = 48 * 1024;

using Threads = IntList<256, 384>;
using Items = IntList<8, 12, 16, 19, 24>;

/// How a tile finds its digit counts and its keys' places in the tile.
enum class Ranking {
  warp_counts_first,  ///< each warp counts into its own counters, then one sweep per warp ranks into final places
  warp_one_sweep,     ///< one sweep per warp counts and ranks at once, a second look at the counters completes places
  shared_histogram,   ///< a block-wide shared histogram (atomics) for the counts, then the warp sweep
  rounds,             ///< the shared histogram, then stage 4's rounds of NT keys (TileDigitRanks)
};

/// How a warp finds the lanes whose keys have the same digit (the peers) in the warp sweeps.
enum class Peers {
  votes,    ///< peers_by_bit_votes (PTX); the highest peer adds to the counter with one shared atomic
  ballots,  ///< peers_by_bit_ballots (C++); the lowest peer reads and writes the counter
  match,    ///< __match_any_sync; the lowest peer reads and writes the counter
};

/// What one form of the pass does, each member one change of the lesson (the stage sets every
/// one; each variant row undoes one).
template <bool kEarly, Ranking kRanking, Peers kPeers, bool kOccupancy, bool kOneCopy, bool kWindow, bool kDirect>
struct Choices {
  static constexpr bool early = kEarly;          ///< publish the counts before ranking (else once placed)
  static constexpr Ranking ranking = kRanking;   ///< how the tile counts and ranks its keys
  static constexpr Peers peers = kPeers;         ///< how a warp finds the lanes with its key's digit
  static constexpr bool occupancy = kOccupancy;  ///< three blocks per SM for keys, two for pairs (else swapped)
  static constexpr bool one_copy = kOneCopy;     ///< stage 4's histogram kernel (else the wide one)
  static constexpr bool window = kWindow;        ///< the look-back window of kLookBackWindow (else swapped)
  static constexpr bool direct = kDirect;        ///< a pointer per digit, full tiles written without bounds tests
};

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
  unsigned histogram[kRadix];              ///< the shared-histogram variants' count of each digit
  unsigned tile_start[kRadix];             ///< the tile's keys of smaller digits
  unsigned long long output_base[kRadix];  ///< output place of the digit's local place 0
  K* key_out_at[kRadix];                   ///< keys_out + output_base: where the digit's local place 0 goes
  unsigned ticket;
};

/// Whether a tile of NT x VT keys of type K fits the static shared memory of a block.
template <int NT, int VT, class K>
constexpr bool kFits = sizeof(TunedStorage<NT, VT, K>) <= kStaticSharedBytes;

/// Blocks per SM that tuned_pass asks the compiler to fit, through __launch_bounds__'s second
/// argument. For tiles of up to 19 keys a thread (kOccupancy): three for keys alone, a budget of
/// 65536 / (3 x NT) registers a thread, 56 at 384 threads and 85 at 256; two for keys with values,
/// the compiler's own choice for the default tiles. The variant row (!kOccupancy) swaps the two.
/// Larger tiles need more registers: one.
template <int NT, int VT, bool kOccupancy, bool kPairs>
constexpr int kPassBlocks = VT > 19                ? 1
                            : kOccupancy != kPairs ? 3
                                                   : 2;

/// Predecessors each step of a digit's look-back reads at once (look_back_column's kWindow). For
/// keys alone (kChoice) four: the walk waits for a quarter as many loads one after another. With
/// values one, the textbook walk, which measured faster there. The variant row (!kChoice) swaps
/// the two.
template <bool kPairs, bool kChoice>
constexpr int kLookBackWindow = kChoice != kPairs ? 4 : 1;

/// One digit pass, in the form C (a Choices). kPairs: move values too (a kernel of its own, so
/// that the keys-only kernel does not hold the keys' places in registers after the keys are
/// written).
template <int NT, int VT, class K, class C, bool kPairs>
__global__ void __launch_bounds__(NT, (kPassBlocks<NT, VT, C::occupancy, kPairs>))
    tuned_pass(const K* __restrict__ keys_in, const Value* __restrict__ values_in, K* __restrict__ keys_out,
               Value* __restrict__ values_out, std::size_t n, int shift,
               const unsigned long long* __restrict__ digit_starts, unsigned* ticket_counter,
               PackedCountStatus status) {
  static_assert(kRadix <= NT, "one thread per digit publishes and looks back");
  constexpr bool kEarly = C::early;
  constexpr Ranking R = C::ranking;
  constexpr Peers P = C::peers;
  using Storage = TunedStorage<NT, VT, K>;
  constexpr int kWarps = Storage::kWarps;
  constexpr int kTile = NT * VT;
  constexpr bool kWarpSweep = R != Ranking::rounds;
  __shared__ Storage storage;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;

  if (R == Ranking::shared_histogram || R == Ranking::rounds)
    for (int i = threadIdx.x; i < kRadix; i += NT) storage.histogram[i] = 0;
  if (kWarpSweep)
    for (int i = threadIdx.x; i < kWarps * kRadix; i += NT) (&storage.tile.warp_counts[0][0])[i] = 0;
  if (threadIdx.x == 0) storage.ticket = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  const unsigned tile_index = storage.ticket;
  const std::size_t first = static_cast<std::size_t>(tile_index) * kTile;
  const int tile_count = static_cast<int>(n - first < static_cast<std::size_t>(kTile) ? n - first : kTile);
  // Key j of this thread: warp-striped (the warp's own slice, lanes side by side) or, in the
  // rounds variant, block-striped rounds of NT keys as in stage 4. Either way the keys are ranked
  // in input order.
  const auto local_of = [&](int j) { return kWarpSweep ? warp * 32 * VT + j * 32 + lane : j * NT + threadIdx.x; };
  const auto digit_of = [&](const K& key) { return digit(ordered_bits(key), shift, kBits); };

  // Places past the end of the last tile hold last_key<K>(): its digit is the largest, and it
  // comes after every real key, so it is ranked after them all, its place in the sorted tile is
  // at or past tile_count, and it is never written out. Only the last tile's count of the
  // largest digit includes them, and no tile looks back at the last one.
  const K* tile_keys = keys_in + first;
  K key[VT];
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    const int local = local_of(j);
    key[j] = local < tile_count ? tile_keys[local] : last_key<K>();
  }

  const unsigned digit_value = threadIdx.x;  // thread d < kRadix publishes and looks back for digit d
  const bool digit_thread = digit_value < kRadix;
  // This tile's status of digit d, and what it first publishes there.
  const auto entry = [&] { return static_cast<std::size_t>(tile_index) * kRadix + digit_value; };
  const TileFlag own_flag = tile_index == 0 ? kTileInclusive : kTileAggregate;
  unsigned count = 0;  // in thread d: the tile's keys of digit d
  unsigned start = 0;  // in thread d: the tile's keys of smaller digits
  unsigned place[VT];  // each key's place in the tile sorted by digit
  constexpr int kDigitShift = 16;
  constexpr unsigned kRankMask = (1u << kDigitShift) - 1;
  static_assert(kTile <= (1 << kDigitShift), "a rank fits below kDigitShift");
  // A key's rank among the keys of its warp with its digit d that came before it in the warp's
  // input order: the counter of d before this step plus its peers (the lanes of the warp with
  // digit d) below it, their number then added to the counter. Only this warp touches its
  // counters.
  const unsigned lanes_at_or_below = (2u << lane) - 1u;  // lane 31: 0 - 1, every lane
  const auto warp_rank = [&](unsigned d, unsigned* counters) {
    if constexpr (P == Peers::votes) {
      // As cub::BlockRadixRankMatchEarlyCounts: eight votes in PTX, the highest peer leads
      // (31 - clz is one instruction, ffs two), its peers at or below it are all of them, and it
      // adds their number with one shared atomic that returns the count before it: no separate
      // read and write, no __syncwarp between keys.
      const unsigned peers = peers_by_bit_votes<kBits>(d);
      const int leader = 31 - __clz(peers);
      const unsigned upto = __popc(peers & lanes_at_or_below);
      unsigned before = 0;
      if (lane == leader) before = atomicAdd(&counters[d], upto);
      return __shfl_sync(kFullWarp, before, leader) + upto - 1u;
    } else {
      // The C++ ballots or the match instruction; the lowest peer reads and writes the counter.
      const unsigned peers = P == Peers::match ? __match_any_sync(kFullWarp, d) : peers_by_bit_ballots<kBits>(d);
      const int leader = __ffs(peers) - 1;
      unsigned before = 0;
      if (lane == leader) {
        before = counters[d];
        counters[d] = before + __popc(peers);
      }
      const unsigned rank = __shfl_sync(kFullWarp, before, leader) + __popc(peers & lanes_below());
      __syncwarp();  // the next key's leader reads what this one's wrote
      return rank;
    }
  };
  if constexpr (R == Ranking::warp_counts_first || R == Ranking::warp_one_sweep) {
    unsigned* counters = storage.tile.warp_counts[warp];
    if constexpr (R == Ranking::warp_counts_first) {
      // Each warp counts the digits of its slice into its own counters, one shared atomic per
      // key (the compiler merges the lanes of one instruction that add to the same counter).
#pragma unroll
      for (int j = 0; j < VT; ++j) atomicAdd(&counters[digit_of(key[j])], 1u);
    } else {
      // The variant ranks in the same sweep that counts; each place then holds the key's digit
      // above kDigitShift and its rank in its warp below, completed once the warps' starts are
      // known (the digit is read back from there, so that no register array holds the digits).
#pragma unroll
      for (int j = 0; j < VT; ++j) {
        const unsigned d = digit_of(key[j]);
        place[j] = (d << kDigitShift) | warp_rank(d, counters);
      }
    }
    __syncthreads();
    // One walk over the warps per digit: the tile's count of digit d (published at once) and
    // where each warp's keys of digit d start among them.
    if (digit_thread) {
#pragma unroll
      for (int w = 0; w < kWarps; ++w) {
        const unsigned warp_count = storage.tile.warp_counts[w][digit_value];
        storage.tile.warp_counts[w][digit_value] = count;
        count += warp_count;
      }
      if (kEarly) status.publish(entry(), own_flag, count);
    }
    unsigned total = 0;
    start = BlockScan<NT, Plus<unsigned>>::exclusive_scan(count, total, storage.scan, Plus<unsigned>{});
    if (digit_thread)
#pragma unroll
      for (int w = 0; w < kWarps; ++w) storage.tile.warp_counts[w][digit_value] += start;
    __syncthreads();
    // The counters now hold where each warp's keys of each digit start in the sorted tile.
    if constexpr (R == Ranking::warp_counts_first) {
#pragma unroll
      for (int j = 0; j < VT; ++j) {
        unsigned d = digit_of(key[j]);
        // Opaque to the compiler: it recomputes the counter's address here rather than keeping
        // the counting sweep's VT addresses in registers across the barriers (spills at 384 x 19).
        asm volatile("" : "+r"(d));
        place[j] = warp_rank(d, counters);
      }
    } else {
#pragma unroll
      for (int j = 0; j < VT; ++j) place[j] = (place[j] & kRankMask) + counters[place[j] >> kDigitShift];
    }
  } else {
    // The counts first, with block-wide atomics on one shared histogram (the keys of all warps
    // meet on the same 256 counters), then a second sweep ranks the keys.
#pragma unroll
    for (int j = 0; j < VT; ++j) atomicAdd(&storage.histogram[digit_of(key[j])], 1u);
    __syncthreads();
    count = digit_thread ? storage.histogram[digit_value] : 0u;
    if (kEarly && digit_thread) status.publish(entry(), own_flag, count);
    unsigned total = 0;
    start = BlockScan<NT, Plus<unsigned>>::exclusive_scan(count, total, storage.scan, Plus<unsigned>{});
    if (digit_thread) storage.tile_start[digit_value] = start;
    if constexpr (R == Ranking::shared_histogram) {
      unsigned* counters = storage.tile.warp_counts[warp];
#pragma unroll
      for (int j = 0; j < VT; ++j) {
        const unsigned d = digit_of(key[j]);
        place[j] = (d << kDigitShift) | warp_rank(d, counters);
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
      for (int j = 0; j < VT; ++j) place[j] = (place[j] & kRankMask) + counters[place[j] >> kDigitShift];
    } else {
      __syncthreads();  // tile_start
      TileDigitRanks<NT, kRadix>::begin(storage.tile.rounds);
#pragma unroll
      for (int j = 0; j < VT; ++j) {
        const unsigned d = digit_of(key[j]);
        place[j] = storage.tile_start[d] + TileDigitRanks<NT, kRadix>::rank(d, storage.tile.rounds);
      }
    }
  }
  if (!kEarly && digit_thread) status.publish(entry(), own_flag, count);
  __syncthreads();  // the counters are dead: the staging area takes their place

  // The look-back of each digit overlaps the other threads' stores into shared memory.
#pragma unroll
  for (int j = 0; j < VT; ++j) storage.tile.keys[place[j]] = key[j];
  if (digit_thread) {
    const unsigned long long before =
        look_back_column<kLookBackWindow<kPairs, C::window>>(status, entry(), kRadix, kBackoffNs);
    if (tile_index != 0) status.publish(entry(), kTileInclusive, before + count);
    // Never negative: the tile's keys of smaller digits are among the input's.
    const unsigned long long base = digit_starts[digit_value] + before - start;
    storage.output_base[digit_value] = base;
    if (C::direct) storage.key_out_at[digit_value] = keys_out + base;
  }
  __syncthreads();
  // With values, each thread keeps the digits of the sorted keys it wrote, four to a register,
  // for the values that take the keys' places in the staging area.
  static_assert(kBits <= 8, "a digit fits a byte of out_digits");
  unsigned out_digits[kPairs ? (VT + 3) / 4 : 1] = {};
  const auto write_key = [&](int i) {
    const int local = i * NT + threadIdx.x;
    const K sorted = storage.tile.keys[local];
    const unsigned d = digit_of(sorted);
    if (C::direct)
      storage.key_out_at[d][local] = sorted;
    else
      keys_out[storage.output_base[d] + local] = sorted;
    if (kPairs) out_digits[i / 4] |= d << (8 * (i % 4));
  };
  if (C::direct && tile_count == kTile) {
    // Every tile but the last: no bounds test.
#pragma unroll
    for (int i = 0; i < VT; ++i) write_key(i);
  } else {
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (i * NT + static_cast<int>(threadIdx.x) < tile_count) write_key(i);
  }
  if constexpr (kPairs) {
    __syncthreads();  // every key is read out of the staging area
    const Value* tile_values = values_in + first;
#pragma unroll
    for (int j = 0; j < VT; ++j) {
      const int local = local_of(j);
      storage.tile.values[place[j]] = local < tile_count ? tile_values[local] : 0;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int local = i * NT + threadIdx.x;
      const unsigned d = (out_digits[i / 4] >> (8 * (i % 4))) & 0xffu;
      if (local < tile_count) values_out[storage.output_base[d] + local] = storage.tile.values[local];
    }
  }
}

/// Counts the digits of every pass over the keys, as count_all_digits does, with two changes:
/// each thread reads 16 bytes at a time (4 keys of 4 bytes, 2 of 8) where the keys are aligned
/// to 16 bytes, two such loads in flight before it counts, and a block keeps kCopies shared
/// histograms, lane l adding to copy l % kCopies, so that fewer lanes of one atomic instruction
/// meet on the same counter. The copies are summed when the block is done.
template <int NT, int kCopies, class K>
__global__ void __launch_bounds__(NT)
    count_all_digits_wide(const K* __restrict__ keys, std::size_t n, unsigned long long* __restrict__ histograms) {
  constexpr int kPasses = (kKeyBits<K> + kBits - 1) / kBits;
  constexpr int kVector = 16 / static_cast<int>(sizeof(K));
  struct alignas(16) Vector {
    K key[kVector];
  };
  __shared__ unsigned counts[kCopies][kPasses][kRadix];
  for (int i = threadIdx.x; i < kCopies * kPasses * kRadix; i += NT) (&counts[0][0][0])[i] = 0;
  __syncthreads();
  auto* copy = counts[threadIdx.x % kCopies];
  const auto count_key = [&](const K& key) {
    const OrderedBits<K> bits = ordered_bits(key);
#pragma unroll
    for (int pass = 0; pass < kPasses; ++pass) atomicAdd(&copy[pass][digit(bits, pass * kBits, kBits)], 1u);
  };
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * NT;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * NT + threadIdx.x;
  // The keys before the first 16-byte boundary, then whole vectors, then the keys after them.
  const auto address = reinterpret_cast<std::uintptr_t>(keys);
  const std::size_t misaligned = address % 16 == 0 ? 0 : (16 - address % 16) / sizeof(K);
  const std::size_t head = misaligned < n ? misaligned : n;
  for (std::size_t i = thread; i < head; i += stride) count_key(keys[i]);
  const std::size_t vectors = (n - head) / kVector;
  const auto* vector = reinterpret_cast<const Vector*>(keys + head);
  std::size_t v = thread;
  for (; v + stride < vectors; v += 2 * stride) {
    const Vector a = vector[v];
    const Vector b = vector[v + stride];
#pragma unroll
    for (int k = 0; k < kVector; ++k) count_key(a.key[k]);
#pragma unroll
    for (int k = 0; k < kVector; ++k) count_key(b.key[k]);
  }
  if (v < vectors) {
    const Vector a = vector[v];
#pragma unroll
    for (int k = 0; k < kVector; ++k) count_key(a.key[k]);
  }
  for (std::size_t i = head + vectors * kVector + thread; i < n; i += stride) count_key(keys[i]);
  __syncthreads();
  for (int i = threadIdx.x; i < kPasses * kRadix; i += NT) {
    unsigned count = 0;
#pragma unroll
    for (int c = 0; c < kCopies; ++c) count += (&counts[c][0][0])[i];
    if (count != 0) atomicAdd(&histograms[i], static_cast<unsigned long long>(count));
  }
}

/// Enqueues the sort (onesweep_passes): the histogram of every pass (count_all_digits_wide, or
/// with C::one_copy stage 4's count_all_digits), then per pass tuned_pass<NT, VT, K, C, kPairs>.
template <int NT, int VT, class K, class C>
void run_passes(const SortArgs<K>& args, Workspace& workspace, cudaStream_t stream) {
  onesweep_passes(
      args, workspace, static_cast<std::size_t>(NT) * VT, "tuned onesweep", stream,
      [&](const K* keys, std::size_t n, unsigned long long* histograms) {
        const unsigned grid = resident_grid(LaunchShape{kHistogramThreads, 0, kHistogramBlocksPerSm});
        if constexpr (C::one_copy)
          count_all_digits<kHistogramThreads><<<grid, kHistogramThreads, 0, stream>>>(keys, n, histograms);
        else
          count_all_digits_wide<kHistogramThreads, kHistogramCopies>
              <<<grid, kHistogramThreads, 0, stream>>>(keys, n, histograms);
      },
      [&](const K* keys_in, const Value* values_in, K* keys_out, Value* values_out, const OnesweepPass& pass) {
        if (values_in != nullptr)
          tuned_pass<NT, VT, K, C, true><<<pass.grid, NT, 0, stream>>>(keys_in, values_in, keys_out, values_out, args.n,
                                                                       pass.shift, pass.digit_starts,
                                                                       pass.ticket_counter, pass.status);
        else
          tuned_pass<NT, VT, K, C, false><<<pass.grid, NT, 0, stream>>>(keys_in, values_in, keys_out, values_out,
                                                                        args.n, pass.shift, pass.digit_starts,
                                                                        pass.ticket_counter, pass.status);
      });
}

/// The default tile per key size, one of tile_shapes(); --sweep times the others.
template <class K>
constexpr LaunchShape default_shape() {
  return sizeof(K) == 4 ? LaunchShape{384, 19, 0} : LaunchShape{256, 19, 0};
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
/// shape (the variants that undo one change each).
template <class K, class C, bool kAllShapes>
void launch(const SortArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  if constexpr (kAllShapes) {
    dispatch_tile(shape, Threads{}, Items{}, [&](auto nt, auto vt) {
      constexpr int NT = decltype(nt)::value;
      constexpr int VT = decltype(vt)::value;
      if constexpr (kFits<NT, VT, K>)
        run_passes<NT, VT, K, C>(args, workspace, stream);
      else
        throw std::invalid_argument("tuned onesweep: a tile of " + std::to_string(NT) + " x " + std::to_string(VT) +
                                    " keys does not fit shared memory");
    });
  } else {
    constexpr LaunchShape kDefault = default_shape<K>();
    if (shape.threads != kDefault.threads || shape.items != kDefault.items)
      throw std::invalid_argument("tuned onesweep variants run at the stage's default shape only, " +
                                  describe(kDefault));
    run_passes<kDefault.threads, kDefault.items, K, C>(args, workspace, stream);
  }
}

}  // namespace

template <class K>
SortStage<K> radix_tuned() {
  SortStage<K> stage;
  stage.name = "tuned";
  stage.lesson =
      "counts published before the look-back, each warp counts its own slice then ranks it with eight PTX votes "
      "a key and no barrier, bigger tiles, three blocks per SM for keys (two for pairs), a wider "
      "histogram kernel";
  stage.shape = default_shape<K>();
  stage.sweep = tile_shapes<K>();
  constexpr Ranking kFirst = Ranking::warp_counts_first;
  constexpr Peers kVotes = Peers::votes;
  constexpr bool kWindow = true;
  using Tuned = Choices<true, kFirst, kVotes, true, false, kWindow, true>;
  stage.launch = launch<K, Tuned, true>;
  stage.traits.algorithm = Algorithm::radix;
  stage.traits.digit_bits = kBits;
  stage.traits.key_reads_per_pass = 1.0;  // the pass kernel
  stage.traits.key_reads_per_sort = 1.0;  // the histogram kernel
  stage.traits.key_writes_per_pass = 1.0;
  stage.traits.launches_per_pass = 2;  // the status clear and the pass kernel
  stage.traits.launches_per_sort = 3;  // the histogram clear, the histogram kernel, the scan of the digit starts
  stage.variants = {
      variant_of(stage, "early counts", "the tile publishes its digit counts only once its keys are placed, as stage 4",
                 launch<K, Choices<false, kFirst, kVotes, true, false, kWindow, true>, false>),
      variant_of(stage, "warp counts",
                 "the counts from one shared histogram (block-wide atomics), then a second sweep ranks the keys",
                 launch<K, Choices<true, Ranking::shared_histogram, kVotes, true, false, kWindow, true>, false>),
      variant_of(stage, "match instruction",
                 "each warp finds the lanes with the same digit by __match_any_sync, not by eight votes",
                 launch<K, Choices<true, kFirst, Peers::match, true, false, kWindow, true>, false>),
      variant_of(stage, "warp ranking", "stage 4's ranking: block-striped rounds of NT keys, four barriers per round",
                 launch<K, Choices<true, Ranking::rounds, kVotes, true, false, kWindow, true>, false>),
      variant_of(stage, "tile", "stage 4's tile, 256 x 8 keys", launch<K, Tuned, true>),
      variant_of(stage, "occupancy",
                 "the other blocks per SM: keys alone two (registers left to the compiler), not three; keys with "
                 "values three (56 registers a thread at 384 threads), not two",
                 launch<K, Choices<true, kFirst, kVotes, false, false, kWindow, true>, false>),
      variant_of(stage, "histogram", "stage 4's histogram kernel: one key per load, one shared histogram per block",
                 launch<K, Choices<true, kFirst, kVotes, true, true, kWindow, true>, false>),
      variant_of(stage, "PTX votes",
                 "the eight votes in C++ (__ballot_sync), the lowest peer reading and writing the warp's counter",
                 launch<K, Choices<true, kFirst, Peers::ballots, true, false, kWindow, true>, false>),
      variant_of(stage, "counts first",
                 "one sweep counts and ranks, each place completed by a second look at the counters",
                 launch<K, Choices<true, Ranking::warp_one_sweep, kVotes, true, false, kWindow, true>, false>),
      variant_of(stage, "look-back window",
                 "the other look-back: keys alone read one predecessor a step, waiting for it before the next (as "
                 "stage 4), not four; keys with values four, not one",
                 launch<K, Choices<true, kFirst, kVotes, true, false, false, true>, false>),
      variant_of(stage, "direct write-out",
                 "stage 4's write-out: a 64-bit output place per digit added to each key's place, and a bounds test "
                 "on every key of every tile",
                 launch<K, Choices<true, kFirst, kVotes, true, false, kWindow, false>, false>),
  };
  stage.variants[4].shape = LaunchShape{256, 8, 0};  // the tile row
  return stage;
}

SORT_STAGE_ROWS(radix_tuned);

}  // namespace stepwise::sort
