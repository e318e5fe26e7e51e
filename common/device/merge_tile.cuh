/// @file merge_tile.cuh
/// The device half of the merge-like primitives (merge_path.hpp, sorted_search.hpp,
/// load_balance.hpp): the two levels of Baxter's Merge Path decomposition.
///
/// 1. **Tiles.** A partition kernel (kernels/merge_path_partitions.cuh) runs one Merge Path
///    search in global memory per tile boundary (the diagonals 0, NV, 2NV, ...), so tile t
///    merges exactly the outputs [t*NV, (t+1)*NV): the A and B ranges between its two cross points.
/// 2. **Threads.** The tile loads its two ranges into shared memory with coalesced loads,
///    and each thread searches its own diagonal (VT * thread) there, then merges VT outputs
///    serially, in registers.
///
/// Here, device code only: a tile's ranges from the partition kernel's boundaries, the loads of
/// a tile's two ranges into shared memory (scalar and 16-byte), the 16-byte warp-level store of a
/// thread-order tile, and the tile bodies of the sorted search and of the load-balancing search
/// that later chapters (SpMV, joins) build on.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "algorithm/load_balance.hpp"
#include "algorithm/merge_path.hpp"
#include "algorithm/sorted_search.hpp"
#include "algorithm/tile_layout.hpp"
#include "host/launch.hpp"

namespace stepwise {

/// The ranges of tile blockIdx.x, from the partition kernel's boundaries.
__device__ __forceinline__ MergeRange<std::int64_t> this_tile_range(std::int64_t a_count, std::int64_t b_count,
                                                                    std::int64_t spacing,
                                                                    const std::int64_t* partitions) {
  const std::int64_t tile = blockIdx.x;
  return tile_merge_range<std::int64_t>(a_count, b_count, tile, spacing, partitions[tile], partitions[tile + 1]);
}

/// Loads the @p a_count keys at @p a, then the @p b_count keys at @p b, into
/// shared[0, a_count + b_count) (at most NT*VT): VT strided loads per thread, each warp-wide
/// load one coalesced line (two where it crosses from A to B), all in flight before the first
/// store. The caller synchronizes before reading @p shared.
template <int NT, int VT, class T>
__device__ __forceinline__ void load_ranges_strided(const T* a, int a_count, const T* b, int b_count, T* shared) {
  const int count = a_count + b_count;
  T x[VT];
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const int slot = tile::strided_slot(i, threadIdx.x, NT);
    const T* from = slot < a_count ? a + slot : b + (slot - a_count);
    if (slot < count) x[i] = *from;
  }
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const int slot = tile::strided_slot(i, threadIdx.x, NT);
    if (slot < count) shared[slot] = x[i];
  }
}

/// Elements of T in one 16-byte vector.
template <class T>
inline constexpr int kVectorWidth = 16 / static_cast<int>(sizeof(T));

/// Where VectorizedRangeLoad put a tile's two ranges in shared memory: A at a_offset, B at
/// b_offset (both ranges keep their global offsets mod kVectorWidth, so that every 16-byte
/// vector lands whole and aligned).
struct SharedRanges {
  int a_offset = 0;
  int b_offset = 0;
};

/// A tile's two ranges moved into shared memory with 16-byte loads and stores: the aligned
/// vectors covering A[a_begin, a_begin + a_count), then those covering B's range, strided over
/// the block (one warp-wide load moves 512 bytes, a quarter of the instructions of 4-byte
/// loads). A vector that would cross the end of its array is loaded element by element, so
/// nothing past either array is read. The shared buffer holds NT*VT + kPad elements.
/// load() issues every load of the thread; store() writes them to shared memory: a second
/// range (a merge's values) can be loaded between the two, so that all of a tile's loads are
/// in flight at once.
template <int NT, int VT, class T>
struct VectorizedRangeLoad {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "16-byte vectors of 4- or 8-byte elements");
  static constexpr int kWidth = kVectorWidth<T>;
  /// Shared elements beyond NT*VT: a range of L elements that starts s = begin mod kWidth into
  /// its first vector spans ceil((s + L) / kWidth) vectors, at most L + 2*kWidth - 2 slots; two
  /// ranges, at most 4*kWidth - 4 slots more than their elements.
  static constexpr int kPad = 4 * kWidth;
  /// Vectors per thread: enough for NT*VT elements in two misaligned ranges.
  static constexpr int kSteps = static_cast<int>(ceil_div((NT * VT + kPad) / kWidth, NT));

  union Vector {
    uint4 bits;
    T items[kWidth];
  };
  Vector data[kSteps];
  int vectors = 0;
  SharedRanges at;

  /// Issues the loads of A[a_begin, +a_count) of the @p a_size-element array @p a and of
  /// B[b_begin, +b_count) of @p b. @p a and @p b must be 16-byte aligned.
  __device__ __forceinline__ void load(const T* a, std::int64_t a_size, std::int64_t a_begin, int a_count, const T* b,
                                       std::int64_t b_size, std::int64_t b_begin, int b_count) {
    const int a_shift = static_cast<int>(a_begin % kWidth);
    const int b_shift = static_cast<int>(b_begin % kWidth);
    const int a_vectors = a_count == 0 ? 0 : (a_shift + a_count + kWidth - 1) / kWidth;
    const int b_vectors = b_count == 0 ? 0 : (b_shift + b_count + kWidth - 1) / kWidth;
    const std::int64_t a_first = (a_begin - a_shift) / kWidth;
    const std::int64_t b_first = (b_begin - b_shift) / kWidth;
    vectors = a_vectors + b_vectors;
    at = {a_shift, a_vectors * kWidth + b_shift};
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const int v = tile::strided_slot(s, threadIdx.x, NT);
      if (v >= vectors) continue;
      const bool in_a = v < a_vectors;
      const T* array = in_a ? a : b;
      const std::int64_t size = in_a ? a_size : b_size;
      const std::int64_t first = (in_a ? a_first + v : b_first + (v - a_vectors)) * kWidth;
      if (first + kWidth <= size) {
        data[s].bits = *reinterpret_cast<const uint4*>(array + first);
      } else {
#pragma unroll
        for (int k = 0; k < kWidth; ++k) data[s].items[k] = first + k < size ? array[first + k] : T();
      }
    }
  }

  /// Writes the loaded vectors to @p shared (16-byte aligned, NT*VT + kPad elements) and returns
  /// where the two ranges start there. The caller synchronizes before reading @p shared.
  __device__ __forceinline__ SharedRanges store(T* shared) const {
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const int v = tile::strided_slot(s, threadIdx.x, NT);
      if (v < vectors) reinterpret_cast<uint4*>(shared)[v] = data[s].bits;
    }
    return at;
  }
};

/// Thread-order registers (thread t holds the tile's items t*VT .. t*VT + VT-1) to global memory
/// with 16-byte stores, within each warp: the warp writes its 32*VT items to its own slice of
/// @p shared (thread order: conflict-free for odd VT), __syncwarp, then every lane moves whole
/// vectors, shared to global, 512 bytes per warp-wide store. @p out is the tile's first output
/// (16-byte aligned); only the first @p count items are stored. @p shared holds NT*VT elements,
/// 16-byte aligned; no block barrier, so the caller's __syncthreads must separate this from
/// earlier reads of @p shared.
template <int NT, int VT, class T>
__device__ __forceinline__ void store_thread_order_by_warp_vectorized(T* out, int count, const T (&x)[VT], T* shared) {
  constexpr int kWidth = kVectorWidth<T>;
  constexpr int kSlice = tile::kWarpSize * VT;
  constexpr int kVectors = kSlice / kWidth;
  static_assert(kSlice % kWidth == 0, "a warp's slice is whole vectors");
  const int lane = threadIdx.x % tile::kWarpSize;
  const int first = tile::warp_slice_begin(threadIdx.x / tile::kWarpSize, VT);
  T* slice = shared + first;
#pragma unroll
  for (int i = 0; i < VT; ++i) slice[tile::thread_order_slot(lane, i, VT)] = x[i];
  __syncwarp();
#pragma unroll
  for (int s = 0; s < (kVectors + tile::kWarpSize - 1) / tile::kWarpSize; ++s) {
    const int v = tile::warp_striped_slot(s, lane);
    const int item = first + v * kWidth;
    if (v >= kVectors || item >= count) continue;
    if (item + kWidth <= count) {
      reinterpret_cast<uint4*>(out + item)[0] = reinterpret_cast<const uint4*>(slice + v * kWidth)[0];
    } else {
      for (int k = 0; item + k < count; ++k) out[item + k] = slice[v * kWidth + k];
    }
  }
  __syncwarp();
}

/// One tile of the vectorized sorted search (sorted_search.hpp): the needles and the haystack
/// of tile blockIdx.x (from the partition kernel's boundaries, Bounds @p bounds) move to shared
/// memory with 16-byte loads, each thread searches its diagonal there and runs VT steps of the
/// search, writing the bound of every needle it takes to `storage.results`. Needles and
/// haystack must be 16-byte aligned; the haystack's indices fit in int32.
template <int NT, int VT, Bounds bounds, class K>
struct SortedSearchTile {
  static constexpr int kTile = NT * VT;
  using Load = VectorizedRangeLoad<NT, VT, K>;
  /// The tile's shared memory.
  struct Storage {
    alignas(16) K keys[kTile + Load::kPad];
    std::int32_t results[kTile];
  };
  /// Runs the tile and returns its ranges: needles [a_begin, a_end) have their bounds in
  /// storage.results[0, a_count()) after the closing barrier.
  __device__ static MergeRange<std::int64_t> run(const K* needles, std::int64_t needle_count, const K* haystack,
                                                 std::int64_t haystack_count, const std::int64_t* partitions,
                                                 Storage& storage) {
    const MergeRange<std::int64_t> range = this_tile_range(needle_count, haystack_count, kTile, partitions);
    const int a_count = static_cast<int>(range.a_count());
    const int b_count = static_cast<int>(range.b_count());
    Load load;
    load.load(needles, needle_count, range.a_begin, a_count, haystack, haystack_count, range.b_begin, b_count);
    const SharedRanges at = load.store(storage.keys);
    __syncthreads();
    const K* a = storage.keys + at.a_offset;
    const K* b = storage.keys + at.b_offset;
    const int diagonal = min(VT * static_cast<int>(threadIdx.x), a_count + b_count);
    const int path = merge_path<bounds>(a, a_count, b, b_count, diagonal, Less{});
    serial_sorted_search<VT, bounds>(a, path, a_count, b, diagonal - path, b_count, storage.results,
                                     static_cast<std::int32_t>(range.b_begin), Less{});
    __syncthreads();
    return range;
  }
};

/// One tile of the load-balancing search (load_balance.hpp) of @p item_count items over the
/// objects whose offsets are @p offsets[0, object_count) (int32: at most 2^31 - 1 items): the
/// tile's offsets, and the one before them, move to shared memory; each thread searches its
/// diagonal of the merge of the items (a counting sequence) with those offsets and runs VT
/// steps, writing for every item it takes the index in `storage.offsets` of its object's
/// offset. After run(), item range.a_begin + j (j < range.a_count()) belongs to object
/// range.b_begin - 1 + storage.objects[j], at rank item - storage.offsets[storage.objects[j]].
template <int NT, int VT>
struct LoadBalanceTile {
  static constexpr int kTile = NT * VT;
  /// The tile's shared memory.
  struct Storage {
    std::int32_t offsets[kTile + 1];  ///< offsets[b_begin - 1 .. b_end): the object before the tile's first
    std::int32_t objects[kTile];      ///< per item of the tile: its object's index in offsets[]
  };
  /// Runs the tile blockIdx.x (partitions from Bounds::upper) and returns its ranges (A: items,
  /// B: objects). Ends with a barrier: storage is ready to read.
  __device__ static MergeRange<std::int64_t> run(const std::int32_t* offsets, std::int64_t object_count,
                                                 std::int64_t item_count, const std::int64_t* partitions,
                                                 Storage& storage) {
    const MergeRange<std::int64_t> range = this_tile_range(item_count, object_count, kTile, partitions);
    const int a_count = static_cast<int>(range.a_count());
    const int b_count = static_cast<int>(range.b_count());
    std::int32_t x[VT + 1];
#pragma unroll
    for (int i = 0; i < VT + 1; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      const std::int64_t object = range.b_begin - 1 + slot;
      if (slot <= b_count) x[i] = object >= 0 ? offsets[object] : 0;
    }
#pragma unroll
    for (int i = 0; i < VT + 1; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot <= b_count) storage.offsets[slot] = x[i];
    }
    __syncthreads();
    const CountingIterator<int> items{static_cast<int>(range.a_begin)};
    const int diagonal = min(VT * static_cast<int>(threadIdx.x), a_count + b_count);
    const int path = merge_path<Bounds::upper>(items, a_count, storage.offsets + 1, b_count, diagonal, Less{});
    serial_load_balance<VT>(items, path, a_count, storage.offsets + 1, diagonal - path, b_count,
                            [&](int item, int object) { storage.objects[item] = object; });
    __syncthreads();
    return range;
  }
};

}  // namespace stepwise
