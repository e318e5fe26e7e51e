/// @file radix.cuh
/// Device pieces the radix stages share: the one-block exclusive scan of per-tile counts that
/// the multi-kernel passes run between their count and scatter kernels, the digit counts of a
/// tile, the ranking of a tile's keys by digit, and the Onesweep stages' (4 and 5) histogram of
/// every pass and scan of each pass's digit starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "device/block.cuh"
#include "device/thread_ops.hpp"
#include "device/warp.cuh"
#include "keys.hpp"
#include "sort.hpp"

namespace stepwise::sort {

/// log2 of a power of two, at compile time.
STEPWISE_HD constexpr int ilog2(int value) { return value <= 1 ? 0 : 1 + ilog2(value / 2); }

/// One block scans @p count 32-bit counts into 64-bit exclusive prefixes: @p scanned[i] is the
/// sum of counts[0..i), and scanned[count] the sum of all of them. NT counts per trip, the
/// running total carried from trip to trip.
template <int NT>
__global__ void __launch_bounds__(NT) exclusive_scan_counts(const unsigned* __restrict__ counts, std::size_t count,
                                                            unsigned long long* __restrict__ scanned) {
  using Scan = BlockScan<NT, Plus<unsigned long long>>;
  __shared__ typename Scan::Storage storage;
  unsigned long long running = 0;
  for (std::size_t first = 0; first < count; first += NT) {
    const std::size_t i = first + threadIdx.x;
    unsigned long long trip_total = 0;
    const unsigned long long before =
        Scan::exclusive_scan(i < count ? counts[i] : 0ull, trip_total, storage, Plus<unsigned long long>{});
    if (i < count) scanned[i] = running + before;
    running += trip_total;
    __syncthreads();  // the next trip rewrites the storage
  }
  if (threadIdx.x == 0) scanned[count] = running;
}

}  // namespace stepwise::sort

namespace stepwise::sort {

/// Ranks the keys of a tile by digit, in input order, one round of NT keys at a time: a key's
/// rank is the number of keys of its digit before it in the tile (earlier rounds, then earlier
/// threads of its round). Inside a warp, __match_any_sync finds the lanes with the same digit
/// (the key's rank in its warp is the number of those below it); one counter per warp and digit
/// in shared memory, scanned across the warps and added to the digit's running count, places the
/// warp among the block. Four barriers per round; shared memory grows with RADIX x warps, so
/// 8-bit digits fit where a counter per thread and digit would not.
/// @tparam NT threads per block, a multiple of 32.
/// @tparam RADIX digits (2^digit bits, at most 256).
template <int NT, int RADIX>
struct TileDigitRanks {
  static constexpr int kWarps = NT / 32;
  struct Storage {
    unsigned warp_counts[kWarps][RADIX];
    unsigned running[RADIX];  ///< keys of each digit in the rounds so far
  };

  /// Clears the running counts: call once per tile, before the first round.
  __device__ static void begin(Storage& storage) {
    for (int d = threadIdx.x; d < RADIX; d += NT) storage.running[d] = 0;
    __syncthreads();
  }

  /// The rank of this thread's key, of digit @p d (RADIX for a thread without a key, which is
  /// not counted and gets 0), among the tile's keys of that digit so far. Every thread of the
  /// block calls it, once per round.
  __device__ static unsigned rank(unsigned d, Storage& storage) {
    const int warp = threadIdx.x / 32;
    for (int i = threadIdx.x; i < kWarps * RADIX; i += NT) (&storage.warp_counts[0][0])[i] = 0;
    __syncthreads();
    const unsigned peers = __match_any_sync(kFullWarp, d);
    const unsigned below = __popc(peers & lanes_below());
    if (d < RADIX && below == 0) storage.warp_counts[warp][d] = __popc(peers);
    __syncthreads();
    for (int digit_value = threadIdx.x; digit_value < RADIX; digit_value += NT) {
      unsigned running = storage.running[digit_value];
#pragma unroll
      for (int w = 0; w < kWarps; ++w) {
        const unsigned count = storage.warp_counts[w][digit_value];
        storage.warp_counts[w][digit_value] = running;
        running += count;
      }
      storage.running[digit_value] = running;
    }
    __syncthreads();
    const unsigned rank = d < RADIX ? storage.warp_counts[warp][d] + below : 0;
    __syncthreads();  // the next round clears the counters
    return rank;
  }
};

/// A tile of NT x VT keys (and values) sorted by one digit inside the block before it is written:
/// load_and_rank() loads the tile in rounds of NT consecutive keys, ranks each key among the
/// tile's keys of its digit (TileDigitRanks) and scans the tile's digit counts into
/// Storage::tile_start; the caller then sets Storage::output_base[d] (thread d, for every d <
/// RADIX) to the output place of the tile's first key of digit d less tile_start[d]; write()
/// stores the keys in shared memory in digit order and writes them out with thread t taking the
/// sorted keys t, t + NT, ...: consecutive threads, consecutive places of a digit's run.
template <int NT, int VT, int RADIX, class K>
struct DigitTile {
  static_assert(RADIX <= NT, "one thread per digit scans the tile's digit counts");
  using Ranks = TileDigitRanks<NT, RADIX>;
  struct Storage {
    typename Ranks::Storage ranks;
    typename BlockScan<NT, Plus<unsigned>>::Storage scan;
    unsigned tile_start[RADIX];             ///< the tile's keys of smaller digits
    unsigned long long output_base[RADIX];  ///< set by the caller: output place of local place 0 of the digit
    K keys[NT * VT];
    Value values[NT * VT];
  };

  K key[VT];
  Value value[VT];
  unsigned d[VT];
  unsigned rank[VT];
  int count = 0;

  /// Loads and ranks the @p tile_count keys from @p first (values too, when @p values_in is not
  /// null) by the digit at @p shift. Returns, in thread t < RADIX, the tile's count of digit t
  /// (0 in the others); Storage::tile_start is set when it returns.
  __device__ unsigned load_and_rank(const K* __restrict__ keys_in, const Value* __restrict__ values_in,
                                    std::size_t first, int tile_count, int shift, Storage& storage) {
    count = tile_count;
    Ranks::begin(storage.ranks);
#pragma unroll
    for (int j = 0; j < VT; ++j) {
      const int local = j * NT + threadIdx.x;
      const bool valid = local < tile_count;
      key[j] = valid ? keys_in[first + local] : K{};
      value[j] = valid && values_in != nullptr ? values_in[first + local] : 0;
      d[j] = valid ? digit(ordered_bits(key[j]), shift, ilog2(RADIX)) : RADIX;
      rank[j] = Ranks::rank(d[j], storage.ranks);
    }
    const unsigned digit_count = threadIdx.x < RADIX ? storage.ranks.running[threadIdx.x] : 0u;
    unsigned total = 0;
    const unsigned start =
        BlockScan<NT, Plus<unsigned>>::exclusive_scan(digit_count, total, storage.scan, Plus<unsigned>{});
    if (threadIdx.x < RADIX) storage.tile_start[threadIdx.x] = start;
    __syncthreads();
    return digit_count;
  }

  /// Sorts the tile by digit in shared memory and writes it to @p keys_out (@p values_out with
  /// @p pairs) at Storage::output_base of each key's digit plus its place in the tile.
  __device__ void write(K* __restrict__ keys_out, Value* __restrict__ values_out, bool pairs, int shift,
                        Storage& storage) {
    __syncthreads();  // the caller's output_base
#pragma unroll
    for (int j = 0; j < VT; ++j)
      if (d[j] < RADIX) {
        const unsigned place = storage.tile_start[d[j]] + rank[j];
        storage.keys[place] = key[j];
        if (pairs) storage.values[place] = value[j];
      }
    __syncthreads();
    for (int local = threadIdx.x; local < count; local += NT) {
      const K sorted = storage.keys[local];
      const std::size_t place = storage.output_base[digit(ordered_bits(sorted), shift, ilog2(RADIX))] + local;
      keys_out[place] = sorted;
      if (pairs) values_out[place] = storage.values[local];
    }
  }
};

/// Counts the digits of each tile of NT x VT keys, digit-major: @p counts[d * tiles + tile],
/// so that one exclusive scan of the whole array gives every (digit, tile) its first place in
/// the output (Satish, Harris and Garland's layout).
template <int NT, int VT, int RADIX, class K>
__global__ void __launch_bounds__(NT)
    tile_digit_counts(const K* __restrict__ keys, std::size_t n, int shift, unsigned long long* __restrict__ counts) {
  __shared__ unsigned histogram[RADIX];
  for (int d = threadIdx.x; d < RADIX; d += NT) histogram[d] = 0;
  __syncthreads();
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * NT * VT;
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    const std::size_t i = first + static_cast<std::size_t>(j) * NT + threadIdx.x;
    if (i < n) atomicAdd(&histogram[digit(ordered_bits(keys[i]), shift, ilog2(RADIX))], 1u);
  }
  __syncthreads();
  for (int d = threadIdx.x; d < RADIX; d += NT)
    counts[static_cast<std::size_t>(d) * gridDim.x + blockIdx.x] = histogram[d];
}

/// The key whose ordered_bits() has every bit set: the largest digit in every pass, so that a
/// tile padded with it ranks the padding after every real key. Its order is the key's order:
/// UINT_MAX, INT_MAX, the largest positive NaN's bits, UINT64_MAX.
template <class K>
STEPWISE_HD K last_key() {
  if constexpr (std::is_same_v<K, float>) {
    const std::uint32_t bits = 0x7fffffffu;
    float key;
    memcpy(&key, &bits, sizeof key);
    return key;
  } else if constexpr (std::is_signed_v<K>) {
    return static_cast<K>(static_cast<std::make_unsigned_t<K>>(~std::make_unsigned_t<K>{0}) >> 1);
  } else {
    return static_cast<K>(~K{0});
  }
}

/// Onesweep's digits (radix stages 4 and 5): 8 bits, 256 digit values.
inline constexpr int kOnesweepBits = 8;
inline constexpr int kOnesweepRadix = 1 << kOnesweepBits;

/// Counts the digits of every pass over the keys: each block counts in shared memory, then adds
/// its counts to @p histograms[pass][digit].
template <int NT, class K>
__global__ void __launch_bounds__(NT)
    count_all_digits(const K* __restrict__ keys, std::size_t n, unsigned long long* __restrict__ histograms) {
  constexpr int kPasses = (kKeyBits<K> + kOnesweepBits - 1) / kOnesweepBits;
  __shared__ unsigned counts[kPasses][kOnesweepRadix];
  for (int i = threadIdx.x; i < kPasses * kOnesweepRadix; i += NT) (&counts[0][0])[i] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * NT;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * NT + threadIdx.x; i < n; i += stride) {
    const OrderedBits<K> bits = ordered_bits(keys[i]);
#pragma unroll
    for (int pass = 0; pass < kPasses; ++pass)
      atomicAdd(&counts[pass][digit(bits, pass * kOnesweepBits, kOnesweepBits)], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < kPasses * kOnesweepRadix; i += NT) {
    const unsigned count = (&counts[0][0])[i];
    if (count != 0) atomicAdd(&histograms[i], static_cast<unsigned long long>(count));
  }
}

/// One block of RADIX threads per pass scans its RADIX digit counts in place into where each
/// digit starts.
template <int RADIX>
__global__ void __launch_bounds__(RADIX) scan_digit_starts(unsigned long long* __restrict__ histograms) {
  using Scan = BlockScan<RADIX, Plus<unsigned long long>>;
  __shared__ typename Scan::Storage storage;
  unsigned long long* pass = histograms + static_cast<std::size_t>(blockIdx.x) * RADIX;
  unsigned long long total = 0;
  const unsigned long long start = Scan::exclusive_scan(pass[threadIdx.x], total, storage, Plus<unsigned long long>{});
  pass[threadIdx.x] = start;
}

}  // namespace stepwise::sort
