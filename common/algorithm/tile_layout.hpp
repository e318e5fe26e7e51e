/// @file tile_layout.hpp
/// Where the items of a register-blocked tile live: the index maps of the strided <-> thread
/// order transpose, written once for the kernels (tile.cuh) and for the CPU analyses that
/// count their shared-memory bank conflicts.
///
/// A tile of NT threads x VT values per thread holds NT*VT consecutive items.
/// - **Strided order**: at step i, thread t touches item i*NT + t, so each warp-wide access
///   is 32 consecutive items: one coalesced line in global memory, 32 different banks in
///   shared memory.
/// - **Thread order**: thread t owns items t*VT .. t*VT + VT-1, the order a sequential scan or
///   merge needs; at step i it touches item t*VT + i.
/// - **Warp-striped order**: the same inside each warp's slice of 32*VT items: at step i lane l
///   touches slice item i*32 + l; the transpose then never crosses warps.
#pragma once

#include "algorithm/hd.hpp"

namespace stepwise::tile {

/// Shared memory has 32 banks of 4-byte words; word w is in bank w % 32.
inline constexpr int kBanks = 32;
/// Threads per warp.
inline constexpr int kWarpSize = 32;

/// Strided order: the item thread @p thread touches at step @p step of an @p nt-thread tile.
STEPWISE_HD constexpr int strided_slot(int step, int thread, int nt) { return step * nt + thread; }

/// Thread order: the item thread @p thread touches at step @p step when it owns @p vt items.
STEPWISE_HD constexpr int thread_order_slot(int thread, int step, int vt) { return thread * vt + step; }

/// Warp-striped order: the item of its warp's slice that lane @p lane touches at step @p step.
STEPWISE_HD constexpr int warp_striped_slot(int step, int lane) { return step * kWarpSize + lane; }

/// The first item of warp @p warp's slice in a tile of @p vt items per thread.
STEPWISE_HD constexpr int warp_slice_begin(int warp, int vt) { return warp * kWarpSize * vt; }

/// The bank of 4-byte word @p word.
STEPWISE_HD constexpr int bank_of(int word) { return word % kBanks; }

}  // namespace stepwise::tile
