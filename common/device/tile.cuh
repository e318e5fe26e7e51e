/// @file tile.cuh
/// Moving a register-blocked tile between global memory and thread order (after moderngpu).
///
/// Global memory wants strided accesses (each warp-wide load one coalesced line); a thread
/// that scans or merges its VT values wants them consecutive (thread order). The transpose
/// between the two goes through shared memory: stored in one order, read back in the other.
/// The index maps are tile_layout.hpp's, which the bank-conflict analyses replay on the CPU.
/// With 32-bit accesses the thread-order side conflicts for even VT (lanes 32 / gcd(VT, 32)
/// apart share a bank) and hits every bank once per warp per step for odd VT. Where the
/// compiler can prove alignment it merges a thread's consecutive words into 64- or 128-bit
/// accesses, served 16 or 8 lanes at a time, which changes the degree (chapter 02's
/// --analyze models both, and its README shows the counters).
#pragma once

#include <cstddef>

#include "algorithm/tile_layout.hpp"

namespace stepwise {

/// Strided, coalesced loads of the tile of @p count (<= NT*VT) items at @p base: thread t's
/// x[i] is item i*NT + t (each warp-wide load one line). Items past @p count read as @p fill.
template <int NT, int VT, class T>
__device__ __forceinline__ void load_strided(const T* in, std::size_t base, int count, T fill, T (&x)[VT]) {
  const int t = threadIdx.x;
  if (count == NT * VT) {
#pragma unroll
    for (int i = 0; i < VT; ++i) x[i] = in[base + tile::strided_slot(i, t, NT)];
  } else {
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, t, NT);
      x[i] = slot < count ? in[base + slot] : fill;
    }
  }
}

/// Stores strided registers (as load_strided leaves them) to @p shared at the same positions,
/// then a __syncthreads, so that any thread may read any item of the tile.
template <int NT, int VT, class T>
__device__ __forceinline__ void store_strided_shared(const T (&x)[VT], T* shared) {
  const int t = threadIdx.x;
#pragma unroll
  for (int i = 0; i < VT; ++i) shared[tile::strided_slot(i, t, NT)] = x[i];
  __syncthreads();
}

/// Loads the tile of @p count (<= NT*VT) items at @p base into registers in thread order:
/// afterwards thread t holds items t*VT .. t*VT + VT-1. Global loads are strided; the
/// transpose goes through @p shared (NT*VT values). Items past @p count read as @p fill.
/// Two __syncthreads: @p shared is free again on return.
template <int NT, int VT, class T>
__device__ __forceinline__ void load_thread_order(const T* in, std::size_t base, int count, T fill, T (&x)[VT],
                                                  T* shared) {
  load_strided<NT, VT>(in, base, count, fill, x);
  store_strided_shared<NT, VT>(x, shared);
#pragma unroll
  for (int i = 0; i < VT; ++i) x[i] = shared[tile::thread_order_slot(threadIdx.x, i, VT)];
  __syncthreads();
}

/// Strided, coalesced stores of the first @p count items of a tile held in @p shared (in tile
/// order, after a __syncthreads), then a __syncthreads: @p shared is free again on return.
template <int NT, int VT, class T>
__device__ __forceinline__ void store_strided_from_shared(T* out, std::size_t base, int count, const T* shared) {
  const int t = threadIdx.x;
  if (count == NT * VT) {
#pragma unroll
    for (int i = 0; i < VT; ++i) out[base + tile::strided_slot(i, t, NT)] = shared[tile::strided_slot(i, t, NT)];
  } else {
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::strided_slot(i, t, NT);
      if (slot < count) out[base + slot] = shared[slot];
    }
  }
  __syncthreads();
}

/// The inverse of load_thread_order: thread-order registers to shared memory (the same
/// banks, the same conflicts), then strided, coalesced stores of the first @p count items.
template <int NT, int VT, class T>
__device__ __forceinline__ void store_thread_order(T* out, std::size_t base, int count, const T (&x)[VT], T* shared) {
#pragma unroll
  for (int i = 0; i < VT; ++i) shared[tile::thread_order_slot(threadIdx.x, i, VT)] = x[i];
  __syncthreads();
  store_strided_from_shared<NT, VT>(out, base, count, shared);
}

/// Warp-striped loads: warp w owns the 32*VT consecutive items of its slice and loads them
/// 32 at a time (one coalesced line per load). Items past @p count read as @p fill. No
/// shared memory, no barrier.
template <int NT, int VT, class T>
__device__ __forceinline__ void load_warp_striped(const T* in, std::size_t base, int count, T fill, T (&x)[VT]) {
  const int lane = threadIdx.x % 32;
  const int first = tile::warp_slice_begin(threadIdx.x / 32, VT);
  if (count == NT * VT) {
#pragma unroll
    for (int i = 0; i < VT; ++i) x[i] = in[base + first + tile::warp_striped_slot(i, lane)];
  } else {
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = first + tile::warp_striped_slot(i, lane);
      x[i] = slot < count ? in[base + slot] : fill;
    }
  }
}

/// Warp-striped registers to thread order through the warp's own slice of @p shared: thread
/// t ends with items t*VT .. t*VT + VT-1 of the tile, exactly as load_thread_order leaves
/// them, and reads the same banks (odd VT is still conflict-free). No warp touches another's
/// slice, so __syncwarp replaces the block barriers.
template <int NT, int VT, class T>
__device__ __forceinline__ void warp_striped_to_thread_order(T (&x)[VT], T* shared) {
  const int lane = threadIdx.x % 32;
  T* slice = shared + tile::warp_slice_begin(threadIdx.x / 32, VT);
#pragma unroll
  for (int i = 0; i < VT; ++i) slice[tile::warp_striped_slot(i, lane)] = x[i];
  __syncwarp();
#pragma unroll
  for (int i = 0; i < VT; ++i) x[i] = slice[tile::thread_order_slot(lane, i, VT)];
  __syncwarp();
}

/// Warp-striped stores of the warp's slice of @p shared (the tile's items first .. first +
/// 32*VT - 1, written in thread order and synced with __syncwarp) to the first @p count items
/// of the tile at @p base, then a __syncwarp: the slice is free again on return.
template <int NT, int VT, class T>
__device__ __forceinline__ void store_warp_striped_from_slice(T* out, std::size_t base, int count, const T* shared) {
  const int lane = threadIdx.x % 32;
  const int first = tile::warp_slice_begin(threadIdx.x / 32, VT);
  const T* slice = shared + first;
  if (count == NT * VT) {
#pragma unroll
    for (int i = 0; i < VT; ++i)
      out[base + first + tile::warp_striped_slot(i, lane)] = slice[tile::warp_striped_slot(i, lane)];
  } else {
#pragma unroll
    for (int i = 0; i < VT; ++i) {
      const int slot = tile::warp_striped_slot(i, lane);
      if (first + slot < count) out[base + first + slot] = slice[slot];
    }
  }
  __syncwarp();
}

/// The inverse of warp_striped_to_thread_order: thread-order registers through the warp's
/// slice, then warp-striped stores of the first @p count items of the tile.
template <int NT, int VT, class T>
__device__ __forceinline__ void store_thread_order_by_warp(T* out, std::size_t base, int count, const T (&x)[VT],
                                                           T* shared) {
  const int lane = threadIdx.x % 32;
  T* slice = shared + tile::warp_slice_begin(threadIdx.x / 32, VT);
#pragma unroll
  for (int i = 0; i < VT; ++i) slice[tile::thread_order_slot(lane, i, VT)] = x[i];
  __syncwarp();
  store_warp_striped_from_slice<NT, VT>(out, base, count, shared);
}

}  // namespace stepwise
