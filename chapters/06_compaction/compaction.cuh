/// @file compaction.cuh
/// Device pieces the compaction stages share: the element a kernel holds and the test it
/// applies (Selector), a tile's strided loads, and the ranks of a tile's kept elements in tile
/// order from one ballot per warp per step (TileRanks), which is what lets stages 3-6 write a
/// warp's kept elements to consecutive addresses.
///
/// Napkin math: a compaction must read the input once (n keys, plus the flags or the payload)
/// and write the kept elements once, so at selectivity P its floor is a copy of (1 + P) / 2 of
/// the data; at 1 % it is a read. A row that reads the input twice (stages 4 and 5: count, then
/// scatter) moves up to 2n + Pn, and one whose counter serializes (stage 1) is bound by the
/// atomics' rate on one address, not by memory.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "compaction.hpp"
#include "device/block.cuh"
#include "device/thread_ops.hpp"
#include "device/warp.cuh"

namespace stepwise::compaction {

/// One element as a kernel holds it: its key, and its flag or value where the form has them.
template <class K>
struct Element {
  K key;
  Payload value;
  std::uint8_t flag;
};

/// Component @p c of @p vector (c a constant after unrolling: no local array).
__device__ __forceinline__ int component(const int4& vector, int c) {
  return c == 0 ? vector.x : c == 1 ? vector.y : c == 2 ? vector.z : vector.w;
}

/// The key whose bits are @p bits.
template <class K>
__device__ __forceinline__ K key_from_bits(int bits) {
  if constexpr (std::is_same_v<K, float>) {
    return __int_as_float(bits);
  } else {
    return static_cast<K>(bits);
  }
}

/// The device view of SelectArgs with the form (@p kByFlags) and the payload fixed at compile
/// time, so that a kernel loads, tests and stores only what its form has.
template <class K, bool kByFlags, bool kWithPayload>
struct Selector {
  using Key = K;
  static constexpr bool kPayload = kWithPayload;
  const K* __restrict__ keys;
  const std::uint8_t* __restrict__ flags;
  const Payload* __restrict__ values;
  K* __restrict__ kept_keys;
  Payload* __restrict__ kept_values;

  /// Element @p i.
  __device__ __forceinline__ Element<K> load(std::size_t i) const {
    Element<K> element{};
    element.key = keys[i];
    if constexpr (kWithPayload) element.value = values[i];
    if constexpr (kByFlags) element.flag = flags[i];
    return element;
  }
  /// Elements @p i .. i+3, @p i a multiple of 4: one 16-byte load of keys (and of values), and
  /// with flags one 4-byte load of the four flag bytes into @p flag_word, left packed. Nothing
  /// here uses what was loaded, so a caller can issue all its loads before the first one must
  /// arrive (a test inside the caller's per-vector branch would wait for each load in turn).
  __device__ __forceinline__ void load4(std::size_t i, Element<K> (&elements)[4], std::uint32_t& flag_word) const {
    static_assert(sizeof(K) == 4 && sizeof(Payload) == 4, "16-byte loads of 4-byte keys and values");
    const int4 key_vector = *reinterpret_cast<const int4*>(keys + i);
    int4 value_vector{};
    if constexpr (kWithPayload) value_vector = *reinterpret_cast<const int4*>(values + i);
    flag_word = 0;
    if constexpr (kByFlags) flag_word = *reinterpret_cast<const std::uint32_t*>(flags + i);
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      elements[c].key = key_from_bits<K>(component(key_vector, c));
      elements[c].value = component(value_vector, c);
    }
  }
  /// Which of four elements loaded by load4 are kept, as bits 0-3. The flags are tested in the
  /// word they arrived in and never unpacked per element: holding a byte per element across a
  /// tile cost stage 7 about 34 registers per thread at 32 elements.
  __device__ __forceinline__ unsigned keeps4(const Element<K> (&elements)[4], std::uint32_t flag_word) const {
    unsigned kept = 0;
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      if constexpr (kByFlags) {
        if ((flag_word >> (8 * c)) & 0xffu) kept |= 1u << c;
      } else {
        if (keeps_key(elements[c].key)) kept |= 1u << c;
      }
    }
    return kept;
  }
  /// Whether @p element is kept: its flag is not zero, or its key is below 0.
  __device__ __forceinline__ bool keeps(const Element<K>& element) const {
    if constexpr (kByFlags) {
      return element.flag != 0;
    } else {
      return keeps_key(element.key);
    }
  }
  /// The test of element @p i, reading only what the test needs (the flag, or the key): the
  /// counting passes of stages 4 and 5.
  __device__ __forceinline__ bool test(std::size_t i) const {
    if constexpr (kByFlags) {
      return flags[i] != 0;
    } else {
      return keeps_key(keys[i]);
    }
  }
  /// Writes @p element at output position @p position.
  __device__ __forceinline__ void store(std::size_t position, const Element<K>& element) const {
    kept_keys[position] = element.key;
    if constexpr (kWithPayload) kept_values[position] = element.value;
  }
};

/// Calls @p body with the Selector of @p args's form and payload.
template <class K, class Body>
void with_selector(const SelectArgs<K>& args, Body&& body) {
  if (args.flags != nullptr) {
    if (args.values != nullptr)
      body(Selector<K, true, true>{args.keys, args.flags, args.values, args.kept_keys, args.kept_values});
    else
      body(Selector<K, true, false>{args.keys, args.flags, nullptr, args.kept_keys, nullptr});
  } else {
    if (args.values != nullptr)
      body(Selector<K, false, true>{args.keys, nullptr, args.values, args.kept_keys, args.kept_values});
    else
      body(Selector<K, false, false>{args.keys, nullptr, nullptr, args.kept_keys, nullptr});
  }
}

/// The elements of a tile of @p count (<= NT*VT) at @p base, strided: step s of thread t is
/// element s*NT + t, so each step of a warp is 32 consecutive elements (one coalesced load) and
/// the tile's order is (step, warp, lane). @p kept[s] says whether x[s] exists and passes.
template <int NT, int VT, class Selector, class K>
__device__ __forceinline__ void load_tile(const Selector& selector, std::size_t base, int count, Element<K> (&x)[VT],
                                          bool (&kept)[VT]) {
#pragma unroll
  for (int s = 0; s < VT; ++s) {
    const int slot = s * NT + static_cast<int>(threadIdx.x);
    kept[s] = false;
    if (slot < count) {
      x[s] = selector.load(base + slot);
      kept[s] = selector.keeps(x[s]);
    }
  }
}

/// Where each warp's kept elements of each step of a tile go among the tile's kept elements,
/// in tile order (step, warp, lane): the exclusive prefix of the STEPS x NT/32 warp counts
/// (one ballot's popcount each), scanned by the block. With it a warp writes the kept elements
/// of one step to consecutive addresses, so the stores coalesce as the loads did.
/// @tparam NT threads per block; @tparam STEPS steps of the tile (STEPS * NT/32 <= NT).
template <int NT, int STEPS>
struct TileRanks {
  static constexpr int kWarps = NT / 32;
  static constexpr int kCounts = STEPS * kWarps;
  static_assert(NT % 32 == 0 && kCounts <= NT, "one (step, warp) count per thread at most");
  using Scan = BlockScan<NT, Plus<unsigned>>;
  /// The shared memory one call needs.
  struct Storage {
    unsigned counts[kCounts];
    typename Scan::Storage scan;
  };

  /// @p warp_counts[s] is the number of elements this warp keeps at step s (the same in every
  /// lane); on return it is the number of the tile's kept elements before them. Returns the
  /// tile's total, in every thread. Three __syncthreads; @p storage may be used again after
  /// the caller's next __syncthreads.
  __device__ static unsigned exclusive_offsets(unsigned (&warp_counts)[STEPS], Storage& storage) {
    const int warp = static_cast<int>(threadIdx.x / 32);
    if (threadIdx.x % 32 == 0) {
#pragma unroll
      for (int s = 0; s < STEPS; ++s) storage.counts[s * kWarps + warp] = warp_counts[s];
    }
    __syncthreads();
    const bool owner = static_cast<int>(threadIdx.x) < kCounts;
    const unsigned count = owner ? storage.counts[threadIdx.x] : 0u;
    unsigned total = 0;
    // Every read of counts above happens before the scan's barrier, so the writes below are safe.
    const unsigned prefix = Scan::exclusive_scan(count, total, storage.scan, Plus<unsigned>{});
    if (owner) storage.counts[threadIdx.x] = prefix;
    __syncthreads();
#pragma unroll
    for (int s = 0; s < STEPS; ++s) warp_counts[s] = storage.counts[s * kWarps + warp];
    return total;
  }
};

/// Counts of a strided tile: one ballot per step (@p ballots) and its popcount (@p warp_counts).
template <int VT>
__device__ __forceinline__ void ballot_steps(const bool (&kept)[VT], unsigned (&ballots)[VT],
                                             unsigned (&warp_counts)[VT]) {
#pragma unroll
  for (int s = 0; s < VT; ++s) {
    ballots[s] = __ballot_sync(kFullWarp, kept[s]);
    warp_counts[s] = static_cast<unsigned>(__popc(ballots[s]));
  }
}

/// Writes the kept elements of a strided tile: element s of this lane goes to @p tile_base +
/// offsets[s] (its warp's step offset, from TileRanks) + its rank among the step's voters.
template <int VT, class Selector, class K>
__device__ __forceinline__ void scatter_tile(const Selector& selector, unsigned long long tile_base,
                                             const unsigned (&offsets)[VT], const unsigned (&ballots)[VT],
                                             const bool (&kept)[VT], const Element<K> (&x)[VT]) {
  const unsigned below = lanes_below();
#pragma unroll
  for (int s = 0; s < VT; ++s)
    if (kept[s]) selector.store(tile_base + offsets[s] + static_cast<unsigned>(__popc(ballots[s] & below)), x[s]);
}

// ---------------------------------------------------------------------------------------------
// Stages 4 and 5: a fixed grid, each block looping over its own run of tiles (Billeter et al.).

/// Tiles per block when @p tiles tiles are shared by @p blocks blocks: each block takes a
/// contiguous run of this many (the last ones may get fewer, or none).
inline std::size_t tiles_per_block(std::size_t tiles, std::size_t blocks) { return (tiles + blocks - 1) / blocks; }

/// Pass 1 of stages 4 and 5: block b counts the kept elements of its run of tiles, reading
/// only what the test needs, one ballot per warp per step, and writes the count to
/// @p block_counts[b].
template <int NT, int VT, class Selector>
__global__ void __launch_bounds__(NT)
    count_runs(Selector selector, std::size_t n, std::size_t run_tiles, unsigned long long* block_counts) {
  constexpr int kTile = NT * VT;
  __shared__ unsigned long long warp_totals[32];
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * run_tiles * kTile;
  const std::size_t last = first + run_tiles * kTile < n ? first + run_tiles * kTile : n;
  unsigned long long warp_count = 0;  // the same in every lane
  for (std::size_t base = first; base < last; base += kTile) {
    bool kept[VT];
#pragma unroll
    for (int s = 0; s < VT; ++s) {
      const std::size_t i = base + static_cast<std::size_t>(s * NT) + threadIdx.x;
      kept[s] = i < last && selector.test(i);
    }
#pragma unroll
    for (int s = 0; s < VT; ++s) warp_count += static_cast<unsigned>(__popc(__ballot_sync(kFullWarp, kept[s])));
  }
  const unsigned long long total =
      block_reduce(threadIdx.x % 32 == 0 ? warp_count : 0ull, warp_totals, Plus<unsigned long long>{});
  if (threadIdx.x == 0) block_counts[blockIdx.x] = total;
}

/// The last pass of stages 4 and 5: block b reads its run of tiles again and writes each tile's
/// kept elements in order from @p offset (the kept elements of the blocks before it).
template <int NT, int VT, class Selector>
__device__ __forceinline__ void scatter_run(const Selector& selector, std::size_t n, std::size_t run_tiles,
                                            unsigned long long offset, typename TileRanks<NT, VT>::Storage& storage) {
  using K = typename Selector::Key;
  constexpr int kTile = NT * VT;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * run_tiles * kTile;
  const std::size_t last = first + run_tiles * kTile < n ? first + run_tiles * kTile : n;
  for (std::size_t base = first; base < last; base += kTile) {
    const int count = last - base < kTile ? static_cast<int>(last - base) : kTile;
    Element<K> x[VT];
    bool kept[VT];
    unsigned ballots[VT], offsets[VT];
    load_tile<NT, VT>(selector, base, count, x, kept);
    ballot_steps<VT>(kept, ballots, offsets);
    const unsigned total = TileRanks<NT, VT>::exclusive_offsets(offsets, storage);
    scatter_tile<VT>(selector, offset, offsets, ballots, kept, x);
    offset += total;
    __syncthreads();  // storage is reused by the next tile
  }
}

}  // namespace stepwise::compaction
