/// @file setop.cuh
/// The device pieces the set-operation stages share: the workspace carved into their arrays,
/// the balanced-path partition kernel (one balanced cut per tile boundary), and the tile body of
/// stages 2 and 3 (a tile's two ranges in shared memory, one balanced cut per thread there, the
/// serial loop of std::set_* on each thread's piece). The set operations themselves, for host and
/// device, are set_ops.hpp's.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "algorithm/tile_layout.hpp"
#include "host/check.hpp"
#include "host/launch.hpp"
#include "host/workspace.hpp"
#include "set_ops.hpp"
#include "setop.hpp"

namespace stepwise::segmented {

/// Stage 1's scratch: the decisions of A then B, scanned in place into places (total + 1 entries),
/// and CUB's scan storage.
struct PerElementScratch {
  std::int64_t* places = nullptr;
  void* scan_temp = nullptr;
  std::size_t scan_temp_bytes = 0;
};

/// Tile boundaries of the balanced-path stages: cut t is where tile t starts (A[a[t], ..),
/// B[b[t], ..)); cut tiles is the end of both inputs.
struct TileCuts {
  std::int64_t* a = nullptr;  ///< tiles + 1 cuts of A
  std::int64_t* b = nullptr;  ///< tiles + 1 cuts of B
};

/// The balanced-path stages' scratch: the tile boundaries, then stage 2's tile counts (scanned in
/// place into the tiles' places) and CUB's scan storage, or stage 3's look-back ticket and statuses
/// (packed_lookback_layout; cleared before every run).
struct TiledScratch {
  TileCuts cuts;
  std::int64_t tiles = 0;
  std::int64_t* tile_counts = nullptr;
  void* scan_temp = nullptr;
  std::size_t scan_temp_bytes = 0;
  unsigned char* lookback = nullptr;
};

/// Cuts @p workspace into stage 1's arrays for inputs of @p a_count and @p b_count keys.
/// @throws std::invalid_argument when the workspace is too small.
PerElementScratch carve_per_element(Workspace& workspace, std::uint64_t a_count, std::uint64_t b_count);
/// Cuts @p workspace into a balanced-path stage's arrays for tiles of @p tile_items elements.
/// @throws std::invalid_argument when the workspace is too small.
TiledScratch carve_tiled(Workspace& workspace, std::uint64_t a_count, std::uint64_t b_count, int tile_items);

/// The partition kernel: cuts.a[t], cuts.b[t] = balanced_cut(a, b, min(t * spacing, total)) for
/// t <= tiles, one thread per boundary, each a handful of searches in global memory (@p search
/// says which).
template <CutSearch search, class K>
__global__ void balanced_partitions(const K* __restrict__ a, std::int64_t a_count, const K* __restrict__ b,
                                    std::int64_t b_count, std::int64_t spacing, std::int64_t tiles, TileCuts cuts) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t > tiles) return;
  const std::int64_t total = a_count + b_count;
  const std::int64_t diagonal = t * spacing < total ? t * spacing : total;
  const Cut<std::int64_t> cut = balanced_cut<search>(a, a_count, b, b_count, diagonal);
  cuts.a[t] = cut.a;
  cuts.b[t] = cut.b;
}

/// Enqueues balanced_partitions for tiles of @p spacing outputs: @p tiles + 1 boundaries.
template <CutSearch search = CutSearch::full, class K>
void launch_balanced_partitions(const K* a, std::int64_t a_count, const K* b, std::int64_t b_count,
                                std::int64_t spacing, std::int64_t tiles, TileCuts cuts, cudaStream_t stream) {
  constexpr int kThreads = 128;
  const std::size_t boundaries = static_cast<std::size_t>(tiles) + 1;
  balanced_partitions<search, K>
      <<<grid_of(ceil_div(boundaries, kThreads)), kThreads, 0, stream>>>(a, a_count, b, b_count, spacing, tiles, cuts);
  STEPWISE_CHECK_LAUNCH();
}

/// Tiles of @p spacing diagonals over @p total elements (at least one, so that the end cut and the
/// count exist for empty inputs).
inline std::int64_t set_tiles(std::int64_t total, std::int64_t spacing) {
  return total == 0 ? 1 : static_cast<std::int64_t>(ceil_div(static_cast<std::size_t>(total), spacing));
}

/// One tile of the balanced-path stages, NT threads of VT diagonals each: the tile holds NT*VT or
/// NT*VT + 1 elements (a balanced cut may take one more B copy), at most kCapacity. @p search is
/// how the threads' balanced cuts search (CutSearch).
template <int NT, int VT, class K, CutSearch search = CutSearch::full>
struct SetTile {
  static constexpr int kTile = NT * VT;
  static constexpr int kCapacity = kTile + 1;
  /// The most elements one thread's piece holds: a balanced cut adds at most one at either end.
  static constexpr int kPiece = VT + 1;
  /// The most steps the serial loop takes on one piece (balanced_piece_steps: a piece of kPiece
  /// elements ends in a pair, which one step consumes).
  static constexpr int kSteps = balanced_piece_steps(VT);

  /// The tile's shared memory: its A range then its B range (and one key more, which
  /// serial_set_op_masked reads past the end of B's range and never uses), and the threads' cuts.
  struct Storage {
    K keys[kCapacity + 1];
    int cut_a[NT + 1];  ///< per thread: its piece's first A element (tile-local); NT: the tile's end
    int cut_b[NT + 1];  ///< per thread: its piece's first B element
  };

  int a_count = 0;  ///< the tile's A elements, at keys[0, a_count)
  int b_count = 0;  ///< its B elements, at keys[a_count, a_count + b_count)
  int a_begin = 0;  ///< this thread's piece, tile-local
  int a_end = 0;
  int b_begin = 0;
  int b_end = 0;

  /// Loads tile @p tile's ranges (from the partition kernel's @p cuts) into shared memory with
  /// strided, coalesced loads, and cuts each thread's piece by a balanced cut there. Ends with a
  /// barrier: the pieces are ready. Each load addresses its key by a 32-bit offset from the
  /// first key of the tile's range in A or in B (@p kTileOffsets), or by a 64-bit index into the
  /// whole input (the 64-bit sums cost about three times the instructions of the load itself).
  template <bool kTileOffsets = true>
  __device__ void load(const K* a, const K* b, TileCuts cuts, std::int64_t tile, Storage& storage) {
    const std::int64_t a_first = cuts.a[tile];
    const std::int64_t b_first = cuts.b[tile];
    a_count = static_cast<int>(cuts.a[tile + 1] - a_first);
    b_count = static_cast<int>(cuts.b[tile + 1] - b_first);
    const int count = a_count + b_count;
    const K* a_tile = a + a_first;
    const K* b_tile = b + b_first;
    K x[VT + 1];
#pragma unroll
    for (int i = 0; i < VT + 1; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot >= count) continue;
      if constexpr (kTileOffsets) {
        const bool from_a = slot < a_count;
        x[i] = (from_a ? a_tile : b_tile)[from_a ? slot : slot - a_count];
      } else {
        x[i] = slot < a_count ? a[a_first + slot] : b[b_first + slot - a_count];
      }
    }
#pragma unroll
    for (int i = 0; i < VT + 1; ++i) {
      const int slot = tile::strided_slot(i, threadIdx.x, NT);
      if (slot < count) storage.keys[slot] = x[i];
    }
    __syncthreads();
    const K* a_keys = storage.keys;
    const K* b_keys = storage.keys + a_count;
    const int diagonal = min(VT * static_cast<int>(threadIdx.x), count);
    const Cut<int> cut = balanced_cut<search>(a_keys, a_count, b_keys, b_count, diagonal);
    storage.cut_a[threadIdx.x] = cut.a;
    storage.cut_b[threadIdx.x] = cut.b;
    if (threadIdx.x == 0) {  // the last piece ends at the tile's end
      storage.cut_a[NT] = a_count;
      storage.cut_b[NT] = b_count;
    }
    __syncthreads();
    a_begin = cut.a;
    b_begin = cut.b;
    a_end = storage.cut_a[threadIdx.x + 1];
    b_end = storage.cut_b[threadIdx.x + 1];
  }

  /// Runs the serial set op on this thread's piece: `emit(key)` per kept element, in output
  /// order; returns how many it kept.
  template <class Emit>
  __device__ int run(SetOp op, const Storage& storage, Emit&& emit) const {
    return serial_set_op<kPiece>(op, storage.keys, a_begin, a_end, storage.keys + a_count, b_begin, b_end, emit);
  }

  /// The same loop with the op fixed at compile time, @p kStepCount steps (kSteps, or kPiece: a
  /// step for every element a piece can hold), its candidates kept in registers
  /// (serial_set_op_masked): bit s of the returned mask is set when @p keys[s] is kept.
  template <SetOp kOp, int kStepCount>
  __device__ unsigned run_masked(const Storage& storage, K (&keys)[kStepCount]) const {
    static_assert(kStepCount >= kSteps, "a piece can take kSteps steps");
    return serial_set_op_masked<kOp>(storage.keys, a_begin, a_end, storage.keys + a_count, b_begin, b_end, keys);
  }
};

}  // namespace stepwise::segmented
