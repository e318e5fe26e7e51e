/// @file bank_conflicts.hpp
/// The shared-memory bank analysis of the strided-to-thread-order transpose (stages 3 and 4).
///
/// A tile of NT x VT items is loaded in strided order (thread t holds items t, t + NT, ...,
/// so each warp-wide load is one coalesced line), stored to shared memory at the same
/// positions, and read back in thread order: at step i, thread t reads word t*VT + i.
/// Shared memory has 32 banks of 4 bytes; word w lives in bank w % 32. The 32 lanes of a
/// warp read words lane*VT + c, whose banks repeat every 32 / gcd(VT, 32) lanes, so a warp
/// step costs gcd(VT, 32) wavefronts: VT = 8 is 8-way, any odd VT is conflict-free.
#pragma once

#include <string>
#include <vector>

#include "scan_ops.hpp"  // STEPWISE_SCAN_HD

namespace stepwise::scan {

constexpr int kSharedBanks = 32;
constexpr int kWarpLanes = 32;

/// The bank of 4-byte word @p word.
STEPWISE_SCAN_HD constexpr int bank_of(int word) { return word % kSharedBanks; }

/// The conflict degree (wavefronts: the most distinct words any one bank must serve) of
/// step @p step of the thread-order access of warp @p warp: lane l reads word (warp*32 + l)*vt + step.
STEPWISE_SCAN_HD constexpr int thread_order_step_degree(int vt, int warp, int step) {
  int words_per_bank[kSharedBanks] = {};
  int degree = 0;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const int bank = bank_of((warp * kWarpLanes + lane) * vt + step);
    if (++words_per_bank[bank] > degree) degree = words_per_bank[bank];
  }
  return degree;
}

/// The same for the strided access: lane l reads word step*nt + warp*32 + l.
STEPWISE_SCAN_HD constexpr int strided_step_degree(int nt, int warp, int step) {
  int words_per_bank[kSharedBanks] = {};
  int degree = 0;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const int bank = bank_of(step * nt + warp * kWarpLanes + lane);
    if (++words_per_bank[bank] > degree) degree = words_per_bank[bank];
  }
  return degree;
}

/// The worst conflict degree of the thread-order side of the transpose over every warp
/// of an NT-thread block and every step 0..vt-1: 1 means conflict-free.
STEPWISE_SCAN_HD constexpr int transpose_conflict_degree(int nt, int vt) {
  int worst = 0;
  for (int warp = 0; warp < nt / kWarpLanes; ++warp)
    for (int step = 0; step < vt; ++step) {
      const int degree = thread_order_step_degree(vt, warp, step);
      if (degree > worst) worst = degree;
    }
  return worst;
}

/// Shared-memory wavefronts one warp spends on the thread-order side of one transpose
/// (the sum of the step degrees); the conflict-free ideal is @p vt.
STEPWISE_SCAN_HD constexpr int transpose_wavefronts_per_warp(int nt, int vt) {
  int worst = 0;
  for (int warp = 0; warp < nt / kWarpLanes; ++warp) {
    int total = 0;
    for (int step = 0; step < vt; ++step) total += thread_order_step_degree(vt, warp, step);
    if (total > worst) worst = total;
  }
  return worst;
}

/// The worst degree of the strided side (always 1 when NT is a multiple of 32).
STEPWISE_SCAN_HD constexpr int strided_conflict_degree(int nt, int vt) {
  int worst = 0;
  for (int warp = 0; warp < nt / kWarpLanes; ++warp)
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
std::string bank_conflict_table(int nt, const std::vector<int>& vts);

}  // namespace stepwise::scan
