/// @file bank_conflicts.hpp
/// The shared-memory bank model of chapter 02, applied to the strided <-> thread-order
/// transpose (stages 4-7) and to Blelloch's tree (stages 2-3), computed from the index maps
/// the kernels call (common/algorithm/tile_layout.hpp, tree_layout.hpp). Host and device code alike
/// (STEPWISE_HD): the CPU tests and `--analyze` run it.
///
/// Shared memory has 32 banks of 4-byte words; word w lives in bank w % 32. A warp-wide access
/// is served in wavefronts of at most one word per bank (lanes that read the same word share
/// it). The lanes are taken 128 bytes at a time: all 32 lanes of a 32-bit access, 16 lanes
/// (a half-warp) of a 64-bit access, 8 lanes (a quarter-warp) of a 128-bit access. Only lanes
/// of the same phase can conflict. A phase costs as many wavefronts as the most distinct words
/// one of its banks must serve (its degree), an access the sum over its phases; the ideal is one
/// wavefront per phase. Nsight Compute's bank-conflict counters
/// (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld / _st) count the difference.
///
/// The transpose: at step i thread t reads word tile::thread_order_slot(t, i, VT) = t*VT + i.
/// Lanes 32 / gcd(VT, 32) apart share a bank. With 32-bit accesses all 32 lanes are one phase,
/// so every step is gcd(VT, 32)-way: Baxter's table, VT = 8 is 8-way and any odd VT is
/// conflict-free. But a thread's VT words are consecutive: when VT*4 bytes is a multiple of
/// 16 (or 8) and the compiler can prove the alignment, it may read them as 128-bit (64-bit)
/// vectors, w = 4 (2) words per lane, and a phase then holds only 32/w lanes: the degree is
/// gcd(VT, 32) / w. VT = 8 read with LDS.128 is 2-way, not 8-way (lanes l and l + 4 of each
/// quarter-warp share banks). Which width a kernel gets is the compiler's choice, visible in
/// its SASS (the README lists it for every compiled kernel): this model gives the cost of each.
#pragma once

#include <string>
#include <vector>

#include "algorithm/hd.hpp"
#include "algorithm/tile_layout.hpp"
#include "tree_layout.hpp"

namespace stepwise::scan {

/// Bytes of one bank word.
inline constexpr int kWordBytes = 4;
/// Every lane active.
inline constexpr unsigned kAllLanes = 0xffffffffu;

/// The cost of one warp-wide shared-memory access.
struct AccessCost {
  int degree = 0;      ///< the most distinct words one bank serves in one phase (1: conflict-free)
  int wavefronts = 0;  ///< what the access takes: the sum of its phases' degrees
  int ideal = 0;       ///< one wavefront per phase with an active lane
};

/// The lanes served together (a phase) when each lane touches @p width_words words: 128 bytes' worth.
STEPWISE_HD constexpr int lanes_per_phase(int width_words) { return tile::kWarpSize / width_words; }

namespace detail {

/// The distinct words that the active lanes [@p begin, @p end) touch, each once, into @p words.
/// Returns how many there are (at most 32 in one phase).
STEPWISE_HD constexpr int phase_words(const int (&first_word)[tile::kWarpSize], int width_words, unsigned active,
                                      int begin, int end, int (&words)[tile::kWarpSize]) {
  int count = 0;
  for (int lane = begin; lane < end; ++lane) {
    if (((active >> lane) & 1u) == 0) continue;
    for (int k = 0; k < width_words; ++k) {
      const int word = first_word[lane] + k;
      bool seen = false;
      for (int j = 0; j < count; ++j) seen = seen || words[j] == word;
      if (!seen && count < tile::kWarpSize) words[count++] = word;
    }
  }
  return count;
}

}  // namespace detail

/// The cost of one warp-wide access in which active lane l touches the @p width_words (1, 2 or
/// 4) consecutive words from @p first_word[l] (aligned to the width, as the hardware requires).
STEPWISE_HD constexpr AccessCost warp_access_cost(const int (&first_word)[tile::kWarpSize], int width_words,
                                                  unsigned active = kAllLanes) {
  AccessCost cost;
  const int lanes = lanes_per_phase(width_words);
  for (int begin = 0; begin < tile::kWarpSize; begin += lanes) {
    int words[tile::kWarpSize] = {};
    const int count = detail::phase_words(first_word, width_words, active, begin, begin + lanes, words);
    if (count == 0) continue;
    int per_bank[tile::kBanks] = {};
    int degree = 0;
    for (int j = 0; j < count; ++j) {
      const int load = ++per_bank[tile::bank_of(words[j])];
      degree = load > degree ? load : degree;
    }
    cost.wavefronts += degree;
    cost.ideal += 1;
    cost.degree = degree > cost.degree ? degree : cost.degree;
  }
  return cost;
}

/// How many distinct words the bank of @p word serves in the phase of @p lane, for the access
/// of warp_access_cost: 1 where nothing collides with it, k in a k-way conflict (for drawing).
STEPWISE_HD constexpr int bank_load(const int (&first_word)[tile::kWarpSize], int width_words, unsigned active,
                                    int lane, int word) {
  const int begin = lane / lanes_per_phase(width_words) * lanes_per_phase(width_words);
  int words[tile::kWarpSize] = {};
  const int count =
      detail::phase_words(first_word, width_words, active, begin, begin + lanes_per_phase(width_words), words);
  int load = 0;
  for (int j = 0; j < count; ++j) load += tile::bank_of(words[j]) == tile::bank_of(word) ? 1 : 0;
  return load;
}

// --------------------------------------------------------------------------------------
// The strided <-> thread-order transpose (stages 4-7).

/// The widest access, in words, that a thread's VT consecutive words allow: VT*4 bytes from a
/// multiple of VT*4 bytes (in a buffer aligned to 16), so 4 (128-bit) when VT % 4 == 0, 2
/// (64-bit) when VT % 2 == 0, else 1. A compiler may use it, not must.
STEPWISE_HD constexpr int aligned_access_words(int vt) { return vt % 4 == 0 ? 4 : vt % 2 == 0 ? 2 : 1; }

/// The first word lane @p lane of warp @p warp touches with instruction @p instruction of the
/// thread-order side, when each access covers @p width_words of its @p vt words.
STEPWISE_HD constexpr int thread_order_word(int vt, int width_words, int warp, int lane, int instruction) {
  return tile::thread_order_slot(warp * tile::kWarpSize + lane, instruction * width_words, vt);
}

/// One instruction of the thread-order side of the transpose, for warp @p warp, with accesses
/// of @p width_words words (which must divide @p vt).
STEPWISE_HD constexpr AccessCost thread_order_access(int vt, int width_words, int warp, int instruction) {
  int first[tile::kWarpSize] = {};
  for (int lane = 0; lane < tile::kWarpSize; ++lane)
    first[lane] = thread_order_word(vt, width_words, warp, lane, instruction);
  return warp_access_cost(first, width_words);
}

/// The thread-order side of one transpose of an NT x VT tile, per warp.
struct TransposeCost {
  int width_words = 1;   ///< words per access (1: LDS/STS, 2: .64, 4: .128)
  int instructions = 0;  ///< accesses per thread: VT / width_words
  int degree = 0;        ///< the worst degree of any instruction of any warp
  int wavefronts = 0;    ///< wavefronts of the worst warp
  int ideal = 0;         ///< its conflict-free ideal: VT wavefronts
  /// What Nsight Compute counts as bank conflicts, per warp: wavefronts - ideal.
  STEPWISE_HD constexpr int conflicts() const { return wavefronts - ideal; }
};

/// The thread-order side of one transpose with accesses of @p width_words words (dividing @p vt),
/// over every warp of an @p nt-thread tile (warp w's words start at a multiple of 32: the same
/// banks for every warp, and the same for stage 7's per-warp slices).
STEPWISE_HD constexpr TransposeCost transpose_cost(int nt, int vt, int width_words) {
  TransposeCost cost;
  cost.width_words = width_words;
  cost.instructions = vt / width_words;
  for (int warp = 0; warp < nt / tile::kWarpSize; ++warp) {
    int wavefronts = 0;
    int ideal = 0;
    for (int instruction = 0; instruction < cost.instructions; ++instruction) {
      const AccessCost access = thread_order_access(vt, width_words, warp, instruction);
      wavefronts += access.wavefronts;
      ideal += access.ideal;
      cost.degree = access.degree > cost.degree ? access.degree : cost.degree;
    }
    if (wavefronts > cost.wavefronts) {
      cost.wavefronts = wavefronts;
      cost.ideal = ideal;
    }
  }
  return cost;
}

/// The bank conflicts Nsight Compute counts for the thread-order side of one transpose of one
/// whole tile (every warp): per tile and per direction (ld when loading, st when storing).
STEPWISE_HD constexpr long long transpose_conflicts_per_tile(int nt, int vt, int width_words) {
  long long conflicts = 0;
  for (int warp = 0; warp < nt / tile::kWarpSize; ++warp)
    for (int instruction = 0; instruction < vt / width_words; ++instruction) {
      const AccessCost access = thread_order_access(vt, width_words, warp, instruction);
      conflicts += access.wavefronts - access.ideal;
    }
  return conflicts;
}

/// The conflict degree of step @p step of the thread-order side of warp @p warp with 32-bit
/// accesses (Baxter's model).
STEPWISE_HD constexpr int thread_order_step_degree(int vt, int warp, int step) {
  return thread_order_access(vt, 1, warp, step).degree;
}

/// The same for the strided side of an @p nt-thread tile: thread t touches word step*NT + t.
STEPWISE_HD constexpr int strided_step_degree(int nt, int warp, int step) {
  int first[tile::kWarpSize] = {};
  for (int lane = 0; lane < tile::kWarpSize; ++lane)
    first[lane] = tile::strided_slot(step, warp * tile::kWarpSize + lane, nt);
  return warp_access_cost(first, 1).degree;
}

/// The worst 32-bit degree of the thread-order side over every warp and step: 1 means conflict-free.
STEPWISE_HD constexpr int transpose_conflict_degree(int nt, int vt) { return transpose_cost(nt, vt, 1).degree; }

/// Wavefronts one warp spends on the thread-order side of one transpose with 32-bit accesses;
/// the conflict-free ideal is @p vt.
STEPWISE_HD constexpr int transpose_wavefronts_per_warp(int nt, int vt) { return transpose_cost(nt, vt, 1).wavefronts; }

/// The worst degree of the strided side (always 1 when NT is a multiple of 32).
STEPWISE_HD constexpr int strided_conflict_degree(int nt, int vt) {
  int worst = 0;
  for (int warp = 0; warp < nt / tile::kWarpSize; ++warp)
    for (int step = 0; step < vt; ++step) {
      const int degree = strided_step_degree(nt, warp, step);
      worst = degree > worst ? degree : worst;
    }
  return worst;
}

// --------------------------------------------------------------------------------------
// Blelloch's tree (stages 2 and 3).

/// One access of a tree level by warp @p warp: thread t < @p active touches its right child
/// (@p right) or its left child at stride @p stride, at tree::node_slot (@p padded or not).
STEPWISE_HD constexpr AccessCost tree_access(int warp, int stride, int active, bool right, bool padded) {
  int first[tile::kWarpSize] = {};
  unsigned lanes = 0;
  for (int lane = 0; lane < tile::kWarpSize; ++lane) {
    const int t = warp * tile::kWarpSize + lane;
    if (t >= active) continue;
    lanes |= 1u << lane;
    first[lane] = tree::node_slot(right ? tree::right_child(stride, t) : tree::left_child(stride, t), padded);
  }
  return warp_access_cost(first, 1, lanes);
}

/// One level of the tree over a block of @p nt threads.
struct TreeLevel {
  bool down = false;   ///< down-sweep (else up-sweep)
  int stride = 0;      ///< distance between the two children
  int active = 0;      ///< threads that work at this level; the rest wait at the barrier
  int degree = 0;      ///< the worst degree of its accesses
  int wavefronts = 0;  ///< of every access of every warp: up-sweep read left, read right, write right;
                       ///< down-sweep read both, write both
  int ideal = 0;       ///< the same without conflicts
};

/// The level of stride @p stride with @p active threads, up- or down-sweep, padded or not.
STEPWISE_HD constexpr TreeLevel tree_level(int nt, int stride, int active, bool down, bool padded) {
  TreeLevel level;
  level.down = down;
  level.stride = stride;
  level.active = active;
  for (int warp = 0; warp < nt / tile::kWarpSize; ++warp) {
    const AccessCost left = tree_access(warp, stride, active, false, padded);
    const AccessCost right = tree_access(warp, stride, active, true, padded);
    if (left.ideal == 0) continue;  // no thread of this warp works at this level
    const int left_accesses = down ? 2 : 1;
    level.wavefronts += left_accesses * left.wavefronts + 2 * right.wavefronts;
    level.ideal += left_accesses * left.ideal + 2 * right.ideal;
    const int degree = left.degree > right.degree ? left.degree : right.degree;
    level.degree = degree > level.degree ? degree : level.degree;
  }
  return level;
}

/// The bank conflicts Nsight Compute counts for one block's tree, loads and stores.
struct TreeConflicts {
  long long loads = 0;
  long long stores = 0;
};

/// The conflicts of every level of one block's tree (padded or not), with 32-bit accesses; or,
/// with @p pair_leaves, with the two children of each stride-1 level (nodes 2t and 2t + 1,
/// adjacent and 8-byte aligned when unpadded) read as one 64-bit access, and written as one in
/// the down-sweep: what nvcc 13.0 emits for stage 2 (its SASS has one LDS.64 in each sweep and
/// one STS.64). Padded pairs are not 8-byte aligned, so @p pair_leaves changes nothing there.
STEPWISE_HD constexpr TreeConflicts tree_conflicts_per_block(int nt, bool padded, bool pair_leaves) {
  TreeConflicts conflicts;
  int levels = 0;
  for (int items = 1; items < 2 * nt; items *= 2) ++levels;
  for (int k = 0; k < 2 * levels; ++k) {
    const bool down = k >= levels;
    const int depth = down ? 2 * levels - 1 - k : k;
    const int stride = 1 << depth;
    const int active = nt >> depth;
    for (int warp = 0; warp < nt / tile::kWarpSize; ++warp) {
      const AccessCost left = tree_access(warp, stride, active, false, padded);
      const AccessCost right = tree_access(warp, stride, active, true, padded);
      if (left.ideal == 0) continue;
      const int left_extra = left.wavefronts - left.ideal;
      const int right_extra = right.wavefronts - right.ideal;
      if (pair_leaves && stride == 1 && !padded) {
        int first[tile::kWarpSize] = {};
        unsigned lanes = 0;
        for (int lane = 0; lane < tile::kWarpSize; ++lane) {
          const int t = warp * tile::kWarpSize + lane;
          if (t >= active) continue;
          lanes |= 1u << lane;
          first[lane] = tree::left_child(1, t);
        }
        const AccessCost pair = warp_access_cost(first, 2, lanes);
        conflicts.loads += pair.wavefronts - pair.ideal;
        conflicts.stores += down ? pair.wavefronts - pair.ideal : right_extra;
        continue;
      }
      conflicts.loads += left_extra + right_extra;
      conflicts.stores += right_extra + (down ? left_extra : 0);
    }
  }
  return conflicts;
}

/// Levels of the tree of 2 * @p nt items in each sweep: log2(2 * nt).
STEPWISE_HD constexpr int tree_levels(int nt) {
  int levels = 0;
  for (int items = 1; items < 2 * nt; items *= 2) ++levels;
  return levels;
}

/// Level @p k (0 .. 2 * tree_levels - 1) in the order the kernel runs them: the up-sweep with
/// strides 1, 2, ..., nt (nt, nt/2, ..., 1 threads), then the down-sweep back.
STEPWISE_HD constexpr TreeLevel tree_level_in_order(int nt, int k, bool padded) {
  const int levels = tree_levels(nt);
  const bool down = k >= levels;
  const int depth = down ? 2 * levels - 1 - k : k;
  return tree_level(nt, 1 << depth, nt >> depth, down, padded);
}

// --------------------------------------------------------------------------------------
// What --analyze prints.

/// Checks NT (a multiple of 32 in [32, 1024]) and each VT (in [1, 32]).
/// @throws std::invalid_argument naming the bad value.
void require_analyzable(int nt, const std::vector<int>& vts);

/// The text `--analyze` prints: for each VT side by side, the bank every lane of warp 0 reads at
/// step 0 and the degree of every step (32-bit accesses), then per VT the cost with 32-bit
/// accesses and with the widest aligned ones, then Blelloch's tree level by level.
/// @throws std::invalid_argument for a shape require_analyzable refuses.
std::string bank_conflict_table(int nt, const std::vector<int>& vts);

/// The same as one JSON document (`--analyze --format json`), `{"analysis": "scan-transpose", ...}`:
/// everything tools/plot's drawer (tools/stepwise_plot/analysis/scan.py) draws: the bank of every
/// lane at every instruction with each access width, a small tile before and after the
/// transpose, the tree's levels, and a look-back example (lookback_replay.hpp).
/// @throws std::invalid_argument for a shape require_analyzable refuses.
std::string analysis_json(int nt, const std::vector<int>& vts);

}  // namespace stepwise::scan
