/// @file bank_conflicts.hpp
/// The shared-memory bank analysis of the strided <-> thread-order transpose (stages 3-6),
/// computed from the index maps the kernels' transposes call (common/tile_layout.hpp).
///
/// A tile of NT x VT items is loaded in strided order (at step i, thread t holds item
/// tile::strided_slot(i, t, NT), so each warp-wide load is one coalesced line), stored to
/// shared memory at the same positions, and read back in thread order: at step i, thread t
/// reads word tile::thread_order_slot(t, i, VT) = t*VT + i. Word w lives in bank
/// tile::bank_of(w) = w % 32. The 32 lanes of a warp read words lane*VT + c, whose banks
/// repeat every 32 / gcd(VT, 32) lanes, so a warp step costs gcd(VT, 32) wavefronts: VT = 8
/// is 8-way, any odd VT is conflict-free. Stage 6's warp-striped transpose reads the same
/// words of its warp's slice, which starts at a multiple of 32 words: the same banks.
#pragma once

#include <string>
#include <vector>

#include "hd.hpp"
#include "tile_layout.hpp"

namespace stepwise::scan {

/// The conflict degree (wavefronts: the most distinct words any one bank must serve) of
/// step @p step of the thread-order access of warp @p warp in a tile of @p vt values per thread.
STEPWISE_HD constexpr int thread_order_step_degree(int vt, int warp, int step) {
  int words_per_bank[tile::kBanks] = {};
  int degree = 0;
  for (int lane = 0; lane < tile::kWarpSize; ++lane) {
    const int bank = tile::bank_of(tile::thread_order_slot(warp * tile::kWarpSize + lane, step, vt));
    if (++words_per_bank[bank] > degree) degree = words_per_bank[bank];
  }
  return degree;
}

/// The same for the strided access of an @p nt-thread tile.
STEPWISE_HD constexpr int strided_step_degree(int nt, int warp, int step) {
  int words_per_bank[tile::kBanks] = {};
  int degree = 0;
  for (int lane = 0; lane < tile::kWarpSize; ++lane) {
    const int bank = tile::bank_of(tile::strided_slot(step, warp * tile::kWarpSize + lane, nt));
    if (++words_per_bank[bank] > degree) degree = words_per_bank[bank];
  }
  return degree;
}

/// The worst conflict degree of the thread-order side of the transpose over every warp
/// of an NT-thread block and every step 0..vt-1: 1 means conflict-free.
STEPWISE_HD constexpr int transpose_conflict_degree(int nt, int vt) {
  int worst = 0;
  for (int warp = 0; warp < nt / tile::kWarpSize; ++warp)
    for (int step = 0; step < vt; ++step) {
      const int degree = thread_order_step_degree(vt, warp, step);
      if (degree > worst) worst = degree;
    }
  return worst;
}

/// Shared-memory wavefronts one warp spends on the thread-order side of one transpose
/// (the sum of the step degrees); the conflict-free ideal is @p vt.
STEPWISE_HD constexpr int transpose_wavefronts_per_warp(int nt, int vt) {
  int worst = 0;
  for (int warp = 0; warp < nt / tile::kWarpSize; ++warp) {
    int total = 0;
    for (int step = 0; step < vt; ++step) total += thread_order_step_degree(vt, warp, step);
    if (total > worst) worst = total;
  }
  return worst;
}

/// The worst degree of the strided side (always 1 when NT is a multiple of 32).
STEPWISE_HD constexpr int strided_conflict_degree(int nt, int vt) {
  int worst = 0;
  for (int warp = 0; warp < nt / tile::kWarpSize; ++warp)
    for (int step = 0; step < vt; ++step) {
      const int degree = strided_step_degree(nt, warp, step);
      if (degree > worst) worst = degree;
    }
  return worst;
}

/// Checks NT (a multiple of 32 in [32, 1024]) and each VT (in [1, 32]).
/// @throws std::invalid_argument naming the bad value.
void require_analyzable(int nt, const std::vector<int>& vts);

/// The text `--analyze` prints: for each VT side by side, the bank every lane of warp 0
/// reads at step 0 and the degree of every step, then a summary per VT.
/// @throws std::invalid_argument for a shape require_analyzable refuses.
std::string bank_conflict_table(int nt, const std::vector<int>& vts);

}  // namespace stepwise::scan
