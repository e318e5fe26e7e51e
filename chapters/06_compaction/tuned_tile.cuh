/// @file tuned_tile.cuh
/// The tile of the tuned stages (7 ordered, 8 unordered): each warp owns a contiguous slice of
/// the tile, loads it four elements at a time (16-byte loads), packs its kept elements at the
/// front of its slice of shared memory as soon as its ballots give the ranks (no block barrier),
/// and the block then copies the packed elements out, consecutive threads to consecutive
/// addresses. Only where the tile's output starts differs between the two stages: a look-back
/// over the tiles before it (stage 7) or one atomicAdd on a counter (stage 8).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "algorithm/shared_budget.hpp"
#include "compaction.cuh"
#include "device/warp.cuh"
#include "host/dispatch.hpp"
#include "host/launch.hpp"

namespace stepwise::compaction {

/// What the tuned tile does, each a change stage 7 made to stage 6's tile: all on in stages 7 and 8.
/// Stage 7's variant rows turn one off each (a struct derived from this one that hides one member),
/// to measure what that change is worth.
struct TunedTileFeatures {
  /// One 16-byte load of four keys (values), one 4-byte load of four flags; off: four 4-byte (1-byte) loads.
  static constexpr bool vector_loads = true;
  /// Every load of a thread issued before any element is tested; off: each vector tested as it is loaded.
  static constexpr bool loads_first = true;
  /// Flag bytes tested in the 32-bit word they arrive in; off: unpacked into a byte per element, held
  /// across the tile, and tested one by one (the predicate form is unchanged).
  static constexpr bool packed_flags = true;
  /// The kept elements packed in shared memory, then copied out by consecutive threads (pack,
  /// copy_out); off: stored by each lane straight from its registers at its ranks (rank, scatter).
  static constexpr bool staged_stores = true;
};

/// A tile of NT threads x VECTORS x 4 elements, warp-sliced, staged in shared memory.
/// @tparam NT threads per block (a multiple of 32, at most 1024);
/// @tparam VECTORS 16-byte vectors per thread;
/// @tparam Features which of the tuned tile's changes are on (TunedTileFeatures).
template <int NT, int VECTORS, class Selector, class Features = TunedTileFeatures>
struct TunedTile {
  using K = typename Selector::Key;
  static constexpr int kWarps = NT / 32;
  static constexpr int kSlice = 32 * VECTORS * 4;  ///< elements of one warp's slice
  static constexpr int kTile = NT * VECTORS * 4;   ///< elements of the tile
  static_assert(NT % 32 == 0 && kWarps <= 32, "NT must be a multiple of 32, at most 1024");
  static_assert(tile_fits(kTile, sizeof(K) + (Selector::kPayload ? sizeof(Payload) : 0)), "the tile must fit");

  /// The elements one tile stages in shared memory (none without staged stores).
  static constexpr int kStaged = Features::staged_stores ? kTile : 1;

  /// The shared memory of one tile.
  struct Storage {
    K keys[kStaged];
    Payload values[Selector::kPayload ? kStaged : 1];
    unsigned warp_kept[kWarps];  ///< each warp's kept count, then the tile's kept before the warp
  };

  /// The elements of the tile starting at @p base when @p n elements exist in all.
  __device__ static int count_at(std::size_t base, std::size_t n) {
    return n - base < kTile ? static_cast<int>(n - base) : kTile;
  }

  /// Loads this warp's slice of tile @p base (@p count elements in the tile): warp w owns the
  /// kSlice consecutive elements from w x kSlice; at step s, lane l holds elements
  /// 4 (32 s + l) .. 4 (32 s + l) + 3 of the slice (each step one 512-byte load per warp of
  /// keys). Bit c of @p kept_bits[s] says whether component c exists and is kept. Every load is
  /// issued before any element is tested, so a thread has all its loads in flight at once.
  __device__ static void load(const Selector& selector, std::size_t base, int count, Element<K> (&x)[VECTORS][4],
                              unsigned (&kept_bits)[VECTORS]) {
    const int slice = static_cast<int>(threadIdx.x / 32) * kSlice;
    const int lane = static_cast<int>(threadIdx.x % 32);
    std::uint32_t flag_words[VECTORS];
#pragma unroll
    for (int s = 0; s < VECTORS; ++s) {
      const int first = slice + 4 * (32 * s + lane);
      if (first + 4 <= count) {
        if constexpr (Features::vector_loads) {
          selector.load4(base + first, x[s], flag_words[s]);
        } else {
          flag_words[s] = 0;
#pragma unroll
          for (int c = 0; c < 4; ++c) {
            x[s][c] = selector.load(base + first + c);
            flag_words[s] |= static_cast<std::uint32_t>(x[s][c].flag) << (8 * c);
          }
        }
      } else {
        flag_words[s] = 0;
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          if (first + c < count) {
            x[s][c] = selector.load(base + first + c);
            flag_words[s] |= static_cast<std::uint32_t>(x[s][c].flag) << (8 * c);
          }
        }
      }
      if constexpr (!Features::packed_flags) {
#pragma unroll
        for (int c = 0; c < 4; ++c) x[s][c].flag = static_cast<std::uint8_t>(flag_words[s] >> (8 * c));
      }
      if constexpr (!Features::loads_first) kept_bits[s] = test(selector, count, first, x[s], flag_words[s]);
    }
    if constexpr (Features::loads_first) {
#pragma unroll
      for (int s = 0; s < VECTORS; ++s)
        kept_bits[s] = test(selector, count, slice + 4 * (32 * s + lane), x[s], flag_words[s]);
    }
  }

  /// Bit c: whether element c of the four at @p first of the tile exists and is kept.
  __device__ static unsigned test(const Selector& selector, int count, int first, const Element<K> (&x)[4],
                                  std::uint32_t flag_word) {
    const int present = count - first;
    const unsigned exists = present >= 4 ? 0xfu : present > 0 ? (1u << present) - 1u : 0u;
    if constexpr (Features::packed_flags) {
      return selector.keeps4(x, flag_word) & exists;
    } else {
      unsigned kept = 0;
#pragma unroll
      for (int c = 0; c < 4; ++c)
        if (selector.keeps(x[c])) kept |= 1u << c;
      return kept & exists;
    }
  }

  /// Phase 1, warp by warp and without a block barrier: the warp packs its kept elements, in
  /// order, at the front of its own slice of @p storage (four ballots per step give each lane
  /// its rank), so the registers holding the tile are free before anyone waits; lane 0 writes
  /// the warp's count to warp_kept. The caller's __syncthreads makes the counts visible.
  __device__ static void pack(const Element<K> (&x)[VECTORS][4], const unsigned (&kept_bits)[VECTORS],
                              Storage& storage) {
    const int warp = static_cast<int>(threadIdx.x / 32);
    K* slice_keys = storage.keys + warp * kSlice;
    Payload* slice_values = storage.values + (Selector::kPayload ? warp * kSlice : 0);
    const unsigned below = lanes_below();
    unsigned packed = 0;  // the same in every lane
#pragma unroll
    for (int s = 0; s < VECTORS; ++s) {
      unsigned rank = packed;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const unsigned voters = __ballot_sync(kFullWarp, (kept_bits[s] >> c) & 1u);
        packed += static_cast<unsigned>(__popc(voters));
        rank += static_cast<unsigned>(__popc(voters & below));
      }
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        if ((kept_bits[s] >> c) & 1u) {
          slice_keys[rank] = x[s][c].key;
          if constexpr (Selector::kPayload) slice_values[rank] = x[s][c].value;
          ++rank;
        }
      }
    }
    if (threadIdx.x % 32 == 0) storage.warp_kept[warp] = packed;
  }

  /// Without staged stores, in place of pack: the same four ballots per step give @p ranks[s], the
  /// warp's kept elements before this lane's first one of step s, and lane 0 writes the warp's
  /// count to warp_kept; the tile stays in registers until scatter.
  __device__ static void rank(const unsigned (&kept_bits)[VECTORS], unsigned (&ranks)[VECTORS], Storage& storage) {
    const unsigned below = lanes_below();
    unsigned packed = 0;  // the same in every lane
#pragma unroll
    for (int s = 0; s < VECTORS; ++s) {
      ranks[s] = packed;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const unsigned voters = __ballot_sync(kFullWarp, (kept_bits[s] >> c) & 1u);
        packed += static_cast<unsigned>(__popc(voters));
        ranks[s] += static_cast<unsigned>(__popc(voters & below));
      }
    }
    if (threadIdx.x % 32 == 0) storage.warp_kept[threadIdx.x / 32] = packed;
  }

  /// Without staged stores, in place of copy_out (after scan_warp_counts and a __syncthreads):
  /// each lane stores its kept elements, in order, from its registers to @p start + its warp's
  /// place in the tile's output + its ranks.
  __device__ static void scatter(const Selector& selector, unsigned long long start, const Element<K> (&x)[VECTORS][4],
                                 const unsigned (&kept_bits)[VECTORS], const unsigned (&ranks)[VECTORS],
                                 const Storage& storage) {
    const unsigned long long warp_start = start + storage.warp_kept[threadIdx.x / 32];
#pragma unroll
    for (int s = 0; s < VECTORS; ++s) {
      unsigned position = ranks[s];
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        if ((kept_bits[s] >> c) & 1u) selector.store(warp_start + position++, x[s][c]);
      }
    }
  }

  /// In warp 0, after pack (or rank) and a __syncthreads: turns warp_kept into the kept elements of the
  /// tile before each warp, and returns the tile's total (in every lane of warp 0).
  __device__ static unsigned scan_warp_counts(Storage& storage) {
    const int lane = static_cast<int>(threadIdx.x % 32);
    const unsigned mine = lane < kWarps ? storage.warp_kept[lane] : 0u;
    const unsigned inclusive = warp_inclusive_scan(mine, Plus<unsigned>{});
    if (lane < kWarps) storage.warp_kept[lane] = inclusive - mine;
    return shuffle_index(inclusive, 31);
  }

  /// Phase 2, the whole block, after scan_warp_counts and a __syncthreads: the tile's @p total
  /// kept elements to @p start onwards, consecutive threads to consecutive addresses; element
  /// g of the tile's output is in the slice of the last warp whose kept elements start at or
  /// before g.
  __device__ static void copy_out(const Selector& selector, unsigned long long start, unsigned total,
                                  const Storage& storage) {
    for (unsigned g = threadIdx.x; g < total; g += NT) {
      int owner = 0;
#pragma unroll
      for (int w = 1; w < kWarps; ++w)
        if (storage.warp_kept[w] <= g) owner = w;
      const int slot = owner * kSlice + static_cast<int>(g - storage.warp_kept[owner]);
      selector.kept_keys[start + g] = storage.keys[slot];
      if constexpr (Selector::kPayload) selector.kept_values[start + g] = storage.values[slot];
    }
  }
};

/// The tiles stages 7 and 8 compile: threads per block, and elements per thread (four per vector).
using TunedThreads = IntList<128, 256>;
using TunedItems = IntList<16, 24, 32, 40>;

/// The --sweep of stages 7 and 8: every compiled NT x items whose tile fits with a payload.
inline std::vector<LaunchShape> tuned_sweep() {
  std::vector<LaunchShape> shapes;
  for (const LaunchShape& shape : tile_grid(TunedThreads{}, TunedItems{}))
    if (tile_fits(shape.threads * shape.items, sizeof(std::int32_t) + sizeof(Payload))) shapes.push_back(shape);
  return shapes;
}

/// Host side of stages 7 and 8: checks the operands' alignment for the vector loads, picks the
/// compiled tile of @p shape and the Selector of @p args's form, and calls
/// `launch(std::integral_constant<int, NT>, std::integral_constant<int, VECTORS>, selector)`.
/// @throws std::invalid_argument when the shape is not compiled, or its tile does not fit the
/// static shared memory with this form's elements (before anything is enqueued).
/// @tparam Threads, Items the tiles compiled (a variant row compiles its own shape only).
template <class Threads = TunedThreads, class Items = TunedItems, class K, class Launch>
void with_tuned_tile(const SelectArgs<K>& args, const LaunchShape& shape, Launch&& launch) {
  require_aligned(args.keys, 16);
  require_aligned(args.values, 16);
  require_aligned(args.flags, 4);
  dispatch_tile(
      shape, Threads{}, Items{},
      [&](auto nt, auto vt) {
        constexpr int NT = decltype(nt)::value;
        constexpr int kVectors = decltype(vt)::value / 4;
        with_selector(args, [&](auto selector) {
          constexpr std::size_t kElementBytes = sizeof(K) + (decltype(selector)::kPayload ? sizeof(Payload) : 0);
          if constexpr (!tile_fits(NT * kVectors * 4, kElementBytes)) {
            throw std::invalid_argument("tile " + std::to_string(NT) + "x" + std::to_string(kVectors * 4) +
                                        " is not compiled: its elements do not fit the static shared memory");
          } else {
            launch(nt, std::integral_constant<int, kVectors>{}, selector);
          }
        });
      },
      "threads per block", "elements per thread");
}

}  // namespace stepwise::compaction
