/// @file lookback.cuh
/// Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled
/// Look-back", 2016): how a tile learns the reduction of every tile before it without a
/// second pass. Each tile publishes its own aggregate as soon as it has it, then looks back
/// over its predecessors' statuses until it finds an inclusive prefix, and publishes its own
/// inclusive prefix for the tiles behind it. Used by the single-pass scan, by compaction, by
/// the Onesweep radix sort (a look-back per digit, look_back_column) and by the segmented scan
/// and run-length encoding.
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "device/warp.cuh"

namespace stepwise {

/// What a tile has published: nothing yet, its own aggregate, or its inclusive prefix
/// (the reduction of every element up to and including the tile).
enum TileFlag : std::uint32_t { kTileInvalid = 0, kTileAggregate = 1, kTileInclusive = 2 };

/// Tile status for 4-byte values: flag and value packed in one 64-bit word, written and
/// read with single 64-bit relaxed atomics. A reader sees either the old word or the new
/// one, never a flag without its value, so no fence is needed: the reader uses nothing
/// but the value inside the word it read.
template <class T>
struct PackedTileStatus {
  static_assert(sizeof(T) == 4, "packed status holds a 4-byte value");
  unsigned long long* words;

  __device__ void publish(std::size_t tile, TileFlag flag, T value) const {
    std::uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    const unsigned long long word = (static_cast<unsigned long long>(bits) << 32) | flag;
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile])
        .store(word, cuda::memory_order_relaxed);
  }
  __device__ TileFlag read(std::size_t tile, T& value) const {
    const unsigned long long word =
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile]).load(cuda::memory_order_relaxed);
    const std::uint32_t bits = static_cast<std::uint32_t>(word >> 32);
    memcpy(&value, &bits, sizeof bits);
    return static_cast<TileFlag>(word & 0xffffffffu);
  }
};

/// Tile status for counts, non-negative integers below 2^62 (stream compaction's kept
/// elements, 64-bit so that n may pass 2^32): the flag in the low two bits of one 64-bit word
/// and the count above them, written and read with single relaxed atomics as in
/// PackedTileStatus, so again no fence is needed. Its layout is packed_lookback_layout's.
struct PackedCountStatus {
  unsigned long long* words;

  __device__ void publish(std::size_t tile, TileFlag flag, unsigned long long count) const {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile])
        .store(count << 2 | flag, cuda::memory_order_relaxed);
  }
  __device__ TileFlag read(std::size_t tile, unsigned long long& count) const {
    const unsigned long long word =
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile]).load(cuda::memory_order_relaxed);
    count = word >> 2;
    return static_cast<TileFlag>(word & 3u);
  }
};

/// Tile status for a flag bit paired with a 4-byte value (a segmented scan's (head flag, sum since
/// the last head)): the value in the high 32 bits of one 64-bit word, the pair's flag in bit 2 and
/// the tile's flag in bits 0-1, written and read with single relaxed atomics as in
/// PackedTileStatus, so again no fence is needed. Its layout is packed_lookback_layout's.
/// @tparam Pair a struct of a std::uint32_t `flag` (0 or 1) and a 4-byte `value`
template <class Pair>
struct PackedFlaggedStatus {
  static_assert(sizeof(decltype(Pair::value)) == 4, "packed flagged status holds a 4-byte value");
  unsigned long long* words;

  __device__ void publish(std::size_t tile, TileFlag flag, Pair pair) const {
    std::uint32_t bits;
    memcpy(&bits, &pair.value, sizeof bits);
    const unsigned long long word =
        (static_cast<unsigned long long>(bits) << 32) | (pair.flag != 0 ? 4ull : 0ull) | flag;
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile])
        .store(word, cuda::memory_order_relaxed);
  }
  __device__ TileFlag read(std::size_t tile, Pair& pair) const {
    const unsigned long long word =
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile]).load(cuda::memory_order_relaxed);
    const std::uint32_t bits = static_cast<std::uint32_t>(word >> 32);
    memcpy(&pair.value, &bits, sizeof bits);
    pair.flag = static_cast<std::uint32_t>(word >> 2) & 1u;
    return static_cast<TileFlag>(word & 3u);
  }
};

/// The 16-byte word of the paired statuses below: two 64-bit halves, each the 32-bit @p tag beside
/// 32 bits of @p bits (the low half's low bits, the high half's high bits), written with one
/// 16-byte relaxed store.
__device__ __forceinline__ void store_paired_word(unsigned long long* word, std::uint32_t tag,
                                                  unsigned long long bits) {
  const unsigned long long low = bits << 32 | tag;
  const unsigned long long high = (bits & 0xffffffff00000000ull) | tag;
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(__cvta_generic_to_global(word)), "l"(low), "l"(high)
               : "memory");
}

/// Reads a word of store_paired_word with one 16-byte relaxed load: its tag and @p bits, or 0 (and
/// @p bits untouched) when the halves carry different tags, that is, come from two stores.
__device__ __forceinline__ std::uint32_t load_paired_word(const unsigned long long* word, unsigned long long& bits) {
  unsigned long long low;
  unsigned long long high;
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];"
               : "=l"(low), "=l"(high)
               : "l"(__cvta_generic_to_global(word))
               : "memory");
  const std::uint32_t tag = static_cast<std::uint32_t>(low);
  if (tag != static_cast<std::uint32_t>(high)) return 0;  // halves of two publications
  bits = (high & 0xffffffff00000000ull) | low >> 32;
  return tag;
}

/// Tile status for an 8-byte value (two 32-bit fields, such as run-length encoding's count of
/// heads and last head's position), 16 bytes a tile: store_paired_word's two halves each carry
/// the tile's flag beside half the value, so a predecessor's status is one relaxed load, as in
/// PackedTileStatus. The memory model makes each half single-copy atomic, not the pair: a reader
/// may see one half of the aggregate and one of the inclusive prefix that overwrote it. Their
/// flags differ (a tile publishes at most twice, with different flags), so read() returns
/// kTileInvalid for such a pair and the look-back polls again; equal flags mean one publication,
/// and no fence is needed. Its layout is packed_lookback_layout's with 16-byte words.
template <class T>
struct PairedTileStatus {
  static_assert(sizeof(T) == 8, "paired status holds an 8-byte value");
  /// The word size its layout needs (packed_lookback_layout's word_bytes).
  static constexpr std::size_t kWordBytes = 16;
  unsigned long long* words;  ///< two per tile, 16-byte aligned

  __device__ void publish(std::size_t tile, TileFlag flag, T value) const {
    unsigned long long bits;
    memcpy(&bits, &value, sizeof bits);
    store_paired_word(words + 2 * tile, flag, bits);
  }
  __device__ TileFlag read(std::size_t tile, T& value) const {
    unsigned long long bits = 0;
    const std::uint32_t tag = load_paired_word(words + 2 * tile, bits);
    memcpy(&value, &bits, sizeof bits);
    return static_cast<TileFlag>(tag);
  }
};

/// Tile status for a flag bit paired with an 8-byte value (a float64 segmented scan's (head flag,
/// sum since the last head)): PairedTileStatus's word, the pair's flag in bit 2 of the tag beside
/// the tile's flag in bits 0-1. Again a read of halves from two publications returns
/// kTileInvalid. Its layout is packed_lookback_layout's with 16-byte words.
/// @tparam Pair a struct of a std::uint32_t `flag` (0 or 1) and an 8-byte `value`
template <class Pair>
struct PairedFlaggedStatus {
  static_assert(sizeof(decltype(Pair::value)) == 8, "paired flagged status holds an 8-byte value");
  /// The word size its layout needs (packed_lookback_layout's word_bytes).
  static constexpr std::size_t kWordBytes = 16;
  unsigned long long* words;  ///< two per tile, 16-byte aligned

  __device__ void publish(std::size_t tile, TileFlag flag, Pair pair) const {
    unsigned long long bits;
    memcpy(&bits, &pair.value, sizeof bits);
    store_paired_word(words + 2 * tile, (pair.flag != 0 ? 4u : 0u) | flag, bits);
  }
  __device__ TileFlag read(std::size_t tile, Pair& pair) const {
    unsigned long long bits = 0;
    const std::uint32_t tag = load_paired_word(words + 2 * tile, bits);
    memcpy(&pair.value, &bits, sizeof bits);
    pair.flag = tag >> 2 & 1u;
    return static_cast<TileFlag>(tag & 3u);
  }
};

/// Tile status for wider values (Affine): a separate flag, with release/acquire ordering.
/// The writer stores the value, then the flag with memory_order_release (device scope);
/// a reader loads the flag with memory_order_acquire and only then the value: seeing the
/// flag guarantees seeing the value written before it. Aggregate and inclusive prefix
/// live in separate arrays so that upgrading the flag never overwrites a value a reader
/// may be loading.
template <class T>
struct FlaggedTileStatus {
  std::uint32_t* flags;
  T* aggregates;
  T* inclusives;

  __device__ void publish(std::size_t tile, TileFlag flag, T value) const {
    (flag == kTileAggregate ? aggregates : inclusives)[tile] = value;
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(flags[tile]).store(flag, cuda::memory_order_release);
  }
  __device__ TileFlag read(std::size_t tile, T& value) const {
    const auto flag = static_cast<TileFlag>(
        cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(flags[tile]).load(cuda::memory_order_acquire));
    if (flag == kTileAggregate) value = aggregates[tile];
    if (flag == kTileInclusive) value = inclusives[tile];
    return flag;
  }
};

/// Reduces one value per lane in tile order when lane l holds the tile l places further
/// back: higher lanes are earlier tiles, so they are the left operands. Returns the
/// reduction (lane 31's value first) in every lane.
template <class Op>
__device__ __forceinline__ typename Op::value_type warp_reduce_backwards(typename Op::value_type value, Op op) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const typename Op::value_type earlier = shuffle_down(value, offset);
    if (lane + offset < 32) value = op(earlier, value);
  }
  return shuffle_index(value, 0);
}

/// The look-back, by one whole warp: lane l inspects tile (window_end - 1 - l), 32
/// predecessors at a time. Once every lane sees a published status, the nearest tile with
/// an inclusive prefix ends the search: that prefix and the aggregates of the tiles after
/// it (nearer to us) reduce to our exclusive prefix. A window of aggregates only is folded
/// in and the window moves 32 tiles back. Predecessors before tile 0 read as the identity.
/// Every predecessor publishes its aggregate without waiting for anyone, and holds a
/// smaller ticket, so it is already running: the spin always ends.
/// While any lane still sees a predecessor that has published nothing, the warp sleeps
/// for @p backoff_ns (doubling up to 8x) before polling again, as CUB's tuned policies do:
/// the statuses of neighbouring tiles share cache lines, and a warp that polls without
/// pause keeps the L2 slice that holds them busy while the predecessor tries to write its
/// own status there. @p backoff_ns = 0 spins without pause.
template <class Op, class Status>
__device__ typename Op::value_type look_back(const Status& status, std::size_t tile, Op op, unsigned backoff_ns) {
  using T = typename Op::value_type;
  const int lane = threadIdx.x % 32;
  T prefix = Op::identity();  // the tiles between the window and us, already folded
  long long window_end = static_cast<long long>(tile);
  for (;;) {
    const long long predecessor = window_end - 1 - lane;
    T value = Op::identity();
    TileFlag flag = kTileInclusive;
    unsigned delay_ns = backoff_ns;
    for (;;) {
      if (predecessor >= 0) flag = status.read(static_cast<std::size_t>(predecessor), value);
      if (!__any_sync(kFullWarp, flag == kTileInvalid)) break;
      if (delay_ns != 0) {
        __nanosleep(delay_ns);
        delay_ns = delay_ns < 8 * backoff_ns ? 2 * delay_ns : delay_ns;
      }
    }
    const unsigned inclusive_lanes = __ballot_sync(kFullWarp, flag == kTileInclusive);
    const int nearest_inclusive = inclusive_lanes != 0 ? __ffs(inclusive_lanes) - 1 : 31;
    const T window = warp_reduce_backwards(lane <= nearest_inclusive ? value : Op::identity(), op);
    prefix = op(window, prefix);
    if (inclusive_lanes != 0) return prefix;
    window_end -= 32;
  }
}

/// A tile's look-back step after its aggregate is published, by one whole warp of a tile other
/// than tile 0 (tile 0 publishes its aggregate as its inclusive prefix and looks back at nothing):
/// the warp sleeps @p first_poll_ns (0: none), so that its predecessors have mostly published by
/// the first poll, where polling at once keeps the L2 slice that holds their statuses busy while
/// they try to write them; looks back (look_back, polling again after @p backoff_ns); then the
/// @p leader lane publishes the tile's inclusive prefix, op(exclusive prefix, @p aggregate), for
/// the tiles behind it and stores the exclusive prefix in @p tile_prefix, for the rest of the
/// block to read after a __syncthreads. The tile's aggregate must be published first (by any one
/// thread, with kTileAggregate, and without waiting on anyone: that is what makes every look-back
/// end).
/// @param status the tiles' statuses (the table look_back reads)
/// @param tile this tile's index (not 0)
/// @param aggregate the tile's own reduction, as published (Op converts it where it is narrower)
/// @param op the associative operator of the scan
/// @param first_poll_ns the sleep before the first poll (0: none)
/// @param backoff_ns the sleep before polling a predecessor again (0: spin)
/// @param leader true in exactly one lane of the warp (threadIdx.x == 0 for warp 0): the lane that
/// publishes and stores
/// @param tile_prefix a shared-memory variable of the block
/// @return the exclusive prefix of the tile (the reduction of every tile before it), in every lane
template <class Op, class Status, class Aggregate>
__device__ __forceinline__ typename Op::value_type look_back_and_publish(const Status& status, std::size_t tile,
                                                                         Aggregate aggregate, Op op,
                                                                         unsigned first_poll_ns, unsigned backoff_ns,
                                                                         bool leader,
                                                                         typename Op::value_type& tile_prefix) {
  if (first_poll_ns != 0) __nanosleep(first_poll_ns);  // let the predecessors publish first
  const typename Op::value_type exclusive = look_back(status, tile, op, backoff_ns);
  if (leader) {
    status.publish(tile, kTileInclusive, op(exclusive, aggregate));
    tile_prefix = exclusive;
  }
  return exclusive;
}

/// The look-back by one thread, for counts published at @p index - @p stride, @p index - 2
/// @p stride, ... (earlier tiles of one column of a tile x column status table: Onesweep's radix
/// passes keep a column per digit, and each of a tile's threads looks back along its own digit).
/// It walks back until it reaches an inclusive prefix or the table's start, adding aggregates,
/// and returns the sum: the exclusive prefix of the tile's entry. kWindow predecessors are read
/// at once, so that their loads are in flight together, then added nearest first: a walk of k
/// predecessors waits for about k / kWindow loads one after another rather than k (kWindow = 1
/// is the textbook walk). A predecessor that has published nothing is polled again after
/// @p backoff_ns (doubling up to 8x; 0 spins). Every predecessor publishes its aggregate without
/// waiting, and holds a smaller ticket, so the spin always ends.
template <int kWindow = 1>
__device__ inline unsigned long long look_back_column(const PackedCountStatus& status, std::size_t index,
                                                      std::size_t stride, unsigned backoff_ns) {
  static_assert(kWindow >= 1, "a window of at least one predecessor");
  unsigned long long prefix = 0;
  while (index >= stride) {
    unsigned long long count[kWindow];
    TileFlag flag[kWindow];
#pragma unroll
    for (int k = 0; k < kWindow; ++k) {
      // Before the table's start, an inclusive zero: the walk ends there.
      count[k] = 0;
      flag[k] = kTileInclusive;
      if (index >= (k + 1) * stride) flag[k] = status.read(index - (k + 1) * stride, count[k]);
    }
#pragma unroll
    for (int k = 0; k < kWindow; ++k) {
      unsigned delay_ns = backoff_ns;
      while (flag[k] == kTileInvalid) {
        if (delay_ns != 0) {
          __nanosleep(delay_ns);
          delay_ns = delay_ns < 8 * backoff_ns ? 2 * delay_ns : delay_ns;
        }
        flag[k] = status.read(index - (k + 1) * stride, count[k]);
      }
      prefix += count[k];
      if (flag[k] == kTileInclusive) return prefix;
    }
    index -= kWindow * stride;
  }
  return prefix;
}

}  // namespace stepwise
