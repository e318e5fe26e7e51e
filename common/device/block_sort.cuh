/// @file block_sort.cuh
/// A stable sort of one tile of NT x VT keys (and their values) by a block, after moderngpu's
/// blocksort: each thread first sorts its own VT keys in registers with an odd-even
/// transposition network, then ceil(log2(NT)) rounds of Merge Path merges in shared memory double
/// the sorted runs (VT, 2 VT, 4 VT, ...) until the whole tile is one run.
///
/// Why a transposition network in registers and merges above it (not a bitonic network over
/// the tile): a sorting network's compare-exchanges must sit at indices known at compile time
/// to stay in registers, and the transposition network's VT rounds of adjacent exchanges only
/// ever swap neighbours that are strictly out of order, so equal keys never pass each other:
/// it is stable, where a bitonic network is not. Its VT (VT - 1) / 2 comparisons are cheap for
/// the small VT of a tile. Above the thread, the merges are chapter 03's: each thread finds its
/// diagonal in its pair of runs by a Merge Path search and merges VT outputs serially, ties
/// taking the earlier run, so the whole sort is stable. All rounds together cost a thread
/// O((VT + log(NT VT)) log NT) steps, a bitonic network over the tile O(VT log^2(NT VT)).
#pragma once

#include <cuda_runtime.h>

#include "algorithm/merge_path.hpp"
#include "algorithm/tile_layout.hpp"

namespace stepwise {

/// Sorts a thread's @p keys (with @p kPairs, their @p values alongside) in registers by an
/// odd-even transposition network: VT rounds, round r exchanging items (i, i + 1) for every
/// i = r mod 2 when `comp(keys[i + 1], keys[i])`. Stable; all indices are compile-time
/// constants, so nothing leaves registers.
template <bool kPairs, int VT, class K, class V, class Comp>
__device__ __forceinline__ void odd_even_transposition_sort(K (&keys)[VT], V (&values)[VT], Comp comp) {
#pragma unroll
  for (int round = 0; round < VT; ++round) {
#pragma unroll
    for (int i = round % 2; i + 1 < VT; i += 2) {
      if (comp(keys[i + 1], keys[i])) {
        const K key = keys[i];
        keys[i] = keys[i + 1];
        keys[i + 1] = key;
        if constexpr (kPairs) {
          const V value = values[i];
          values[i] = values[i + 1];
          values[i + 1] = value;
        }
      }
    }
  }
}

/// Sorts the block's tile of NT * VT keys held in thread order (thread t holds items
/// t VT .. t VT + VT - 1; with @p kPairs, the values alongside), stably by @p comp: on return
/// thread t holds items t VT .. of the sorted tile, in the same registers. A partial tile is
/// padded by the caller with keys that go after every real key. The merge rounds stage the tile
/// in @p shared_keys (NT * VT keys) and @p shared_values (NT * VT values with @p kPairs, else
/// unread); the caller synchronizes before the first use of that memory (its last reads done)
/// and may reuse it on return (the last round ends with a barrier). Works for any NT and VT.
template <int NT, int VT, bool kPairs, class K, class V, class Comp>
__device__ __forceinline__ void block_merge_sort(K (&keys)[VT], V (&values)[VT], K* shared_keys, V* shared_values,
                                                 Comp comp) {
  constexpr int kTile = NT * VT;
  odd_even_transposition_sort<kPairs>(keys, values, comp);
  const int mine = tile::thread_order_slot(threadIdx.x, 0, VT);
  for (int width = VT; width < kTile; width *= 2) {
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      shared_keys[mine + i] = keys[i];
      if constexpr (kPairs) shared_values[mine + i] = values[i];
    }
    __syncthreads();
    // The pair of runs [first, middle) and [middle, last) this thread's outputs fall in: 2 width
    // is a multiple of VT, so a thread's VT outputs never span two pairs.
    const int first = mine / (2 * width) * (2 * width);
    const int middle = min(first + width, kTile);
    const int last = min(first + 2 * width, kTile);
    const int a_count = middle - first;
    const int b_count = last - middle;
    const int diagonal = mine - first;
    const int path = merge_path(shared_keys + first, a_count, shared_keys + middle, b_count, diagonal, comp);
    serial_merge<VT>(shared_keys + first, path, a_count, shared_keys + middle, diagonal - path, b_count, comp,
                     [&](int i, bool from_a, int a_index, int b_index, K key) {
                       keys[i] = key;
                       if constexpr (kPairs) values[i] = shared_values[from_a ? first + a_index : middle + b_index];
                     });
    __syncthreads();
  }
}

}  // namespace stepwise
