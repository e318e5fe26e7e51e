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
///
/// The serial merge here is not chapter 03's serial_merge but a branch-free form of it (as
/// moderngpu's and CUB's): both runs lie in one shared array, so every step is one comparison,
/// selects, and a single shared load at the selected cursor, with no early exit. serial_merge
/// branches on the side it took and on the end of its ranges; in a warp whose lanes take
/// different sides, each of its VT steps then runs both paths one after the other. Values do
/// not move during the merge: each step keeps the shared slot it took, and the values are
/// gathered by those slots after the last step, VT independent loads issued back to back.
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

/// VT steps of the stable merge of @p shared[a_begin, a_end) and @p shared[b_begin, b_end),
/// two sorted runs of one shared array, without branches: step i writes the key it takes to
/// `keys[i]` and its index in @p shared to `slots[i]`, ties taking A. The ranges must hold at
/// least VT keys together, and @p shared must be readable one key past the later range's end
/// (a cursor at its run's end still loads the key there, which no step then takes).
template <int VT, class K, class Comp>
__device__ __forceinline__ void serial_merge_in_shared(const K* shared, int a_begin, int a_end, int b_begin, int b_end,
                                                       Comp comp, K (&keys)[VT], int (&slots)[VT]) {
  K a_key = shared[a_begin];
  K b_key = shared[b_begin];
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const bool from_b = b_begin < b_end && (a_begin >= a_end || comp(b_key, a_key));
    keys[i] = from_b ? b_key : a_key;
    slots[i] = from_b ? b_begin : a_begin;
    b_begin += from_b;
    a_begin += !from_b;
    if (i + 1 < VT) {
      const K next = shared[from_b ? b_begin : a_begin];
      b_key = from_b ? next : b_key;
      a_key = from_b ? a_key : next;
    }
  }
}

/// How many keys block_merge_sort's merge rounds stage in shared memory for a tile of @p nt x @p vt:
/// the tile and one key more, which a merge cursor at the tile's end reads.
constexpr int block_sort_shared_keys(int nt, int vt) { return nt * vt + 1; }

/// Sorts the block's tile of NT * VT keys held in thread order (thread t holds items
/// t VT .. t VT + VT - 1; with @p kPairs, the values alongside), stably by @p comp: on return
/// thread t holds items t VT .. of the sorted tile, in the same registers. A partial tile is
/// padded by the caller with keys that go after every real key. The merge rounds stage the tile
/// in @p shared_keys (block_sort_shared_keys(NT, VT) keys) and @p shared_values (NT * VT values
/// with @p kPairs, else unread), each thread in items t VT .. t VT + VT - 1 first: a caller
/// whose last use of that memory was its own warp's slice (a warp transpose ending in
/// __syncwarp) needs no barrier before the call; any other synchronizes first. The last round
/// ends with a barrier, so the memory is free on return. Works for any NT and VT.
template <int NT, int VT, bool kPairs, class K, class V, class Comp>
__device__ __forceinline__ void block_merge_sort(K (&keys)[VT], V (&values)[VT], K* shared_keys, V* shared_values,
                                                 Comp comp) {
  constexpr int kTile = NT * VT;
  odd_even_transposition_sort<kPairs>(keys, values, comp);
  const int thread = threadIdx.x;
  const int mine = tile::thread_order_slot(thread, 0, VT);
  // Each round merges pairs of runs of `lanes` threads' outputs (lanes * VT keys each): thread t's
  // pair starts at the thread t rounded down to a multiple of 2 lanes, with no division.
  for (int lanes = 1; lanes < NT; lanes *= 2) {
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      shared_keys[mine + i] = keys[i];
      if constexpr (kPairs) shared_values[mine + i] = values[i];
    }
    __syncthreads();
    const int first_thread = thread & ~(2 * lanes - 1);
    const int first = first_thread * VT;
    const int middle = min(first + lanes * VT, kTile);
    const int last = min(first + 2 * lanes * VT, kTile);
    const int diagonal = mine - first;
    const int path =
        merge_path(shared_keys + first, middle - first, shared_keys + middle, last - middle, diagonal, comp);
    int slots[VT];
    serial_merge_in_shared<VT>(shared_keys, first + path, middle, middle + diagonal - path, last, comp, keys, slots);
    if constexpr (kPairs) {
#pragma unroll
      for (int i = 0; i < VT; ++i) values[i] = shared_values[slots[i]];
    }
    __syncthreads();
  }
}

}  // namespace stepwise
