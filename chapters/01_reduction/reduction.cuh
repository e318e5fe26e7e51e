/// @file reduction.cuh
/// Device pieces several reduction stages share, and the host code that enqueues their
/// passes.
///
/// Every kernel reads the identity (0) for indices past n: the slides assume n is a multiple
/// of the block; these kernels keep the slides' shape and handle any n. Elements of T are
/// summed in T: std::uint32_t (int32 data, wrapping mod 2^32) or float.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "host/check.hpp"
#include "host/launch.hpp"
#include "reduction.hpp"
#include "device/thread_ops.hpp"
#include "device/vector.cuh"

namespace stepwise::reduction {

/// Vector loads in flight per thread in stages 10 to 12 (4 x 16 bytes).
inline constexpr int kVectorsInFlight = 4;

/// The block's dynamic shared memory as an array of T (stages 1 to 6 size it at launch).
template <class T>
__device__ __forceinline__ T* dynamic_shared() {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  return reinterpret_cast<T*>(shared_bytes);
}

/// The last six steps of the tree (64 partial sums to 1), done by the first warp alone,
/// without __syncthreads (Harris's warpReduce).
///
/// Why the slides' version breaks on Volta and later: it relied on the 32 lanes of a warp
/// executing each `sdata[tid] += sdata[tid + 16]` in lockstep, so that every lane read its
/// operand before any lane wrote, with `volatile` only keeping the values out of
/// registers. Since Volta, lanes of a warp are scheduled independently (each has its own
/// program counter) and nothing forces them to stay together: lane 0 may read sdata[16]
/// before lane 16 has written its sum of the previous step, or after lane 16 has already
/// written this step's. That is a data race; the result is wrong when it bites. The safe
/// equivalent splits each step into read, __syncwarp, write, __syncwarp: __syncwarp is a
/// barrier and a memory fence for the warp, so no `volatile` is needed either.
template <class T>
__device__ __forceinline__ void warp_reduce_shared(T* sdata, unsigned tid) {
  T sum = sdata[tid];
#pragma unroll
  for (unsigned s = 32; s > 0; s >>= 1) {
    sum += sdata[tid + s];  // every lane reads its operand ...
    __syncwarp();
    sdata[tid] = sum;  // ... before any lane overwrites one
    __syncwarp();
  }
}

/// The tree of a BLOCK-thread block, completely unrolled: with BLOCK a compile-time
/// constant, every `if (BLOCK >= ...)` and the loop bounds disappear at compile time.
template <unsigned BLOCK, class T>
__device__ __forceinline__ void tree_reduce_unrolled(T* sdata, unsigned tid) {
  static_assert(BLOCK >= 64 && BLOCK <= 1024 && (BLOCK & (BLOCK - 1)) == 0, "BLOCK: a power of two in [64, 1024]");
  if (BLOCK >= 1024) {
    if (tid < 512) sdata[tid] += sdata[tid + 512];
    __syncthreads();
  }
  if (BLOCK >= 512) {
    if (tid < 256) sdata[tid] += sdata[tid + 256];
    __syncthreads();
  }
  if (BLOCK >= 256) {
    if (tid < 128) sdata[tid] += sdata[tid + 128];
    __syncthreads();
  }
  if (BLOCK >= 128) {
    if (tid < 64) sdata[tid] += sdata[tid + 64];
    __syncthreads();
  }
  if (tid < 32) warp_reduce_shared(sdata, tid);
}

/// This thread's share of a grid-stride sum over 16-byte vectors, VT loads in flight:
/// the loads of one iteration are independent, so the thread issues VT x 16 bytes of
/// requests before it waits for the first (Little's law: bandwidth = bytes in flight /
/// latency). The n % 4 trailing elements go one per thread to the first threads.
template <int VT, class T>
__device__ __forceinline__ T thread_sum_vectorized(const T* __restrict__ in, std::size_t n) {
  static_assert(VT >= 1 && VT <= 16, "VT: 1 to 16 vector loads in flight per thread");
  using V = typename Vector4<T>::type;
  const V* in4 = reinterpret_cast<const V*>(in);
  const std::size_t vectors = n / 4;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  T sum = 0;
  std::size_t i = thread;
  for (; i + (VT - 1) * stride < vectors; i += VT * stride) {
    V v[VT];
#pragma unroll
    for (int u = 0; u < VT; ++u) v[u] = in4[i + u * stride];
#pragma unroll
    for (int u = 0; u < VT; ++u) sum += vector_reduce(v[u], Plus<T>{});
  }
  for (; i < vectors; i += stride) sum += vector_reduce(in4[i], Plus<T>{});
  const std::size_t tail = vectors * 4 + thread;
  if (tail < n) sum += in[tail];
  return sum;
}

/// A kernel that sums @p n values at @p in into one partial per block at @p out.
template <class T>
using PassKernel = void (*)(const T* in, T* out, std::size_t n);

/// n = 0: the sum of nothing is the identity, 0 (all-zero bytes for uint32 and float).
template <class T>
void write_identity(T* out, cudaStream_t stream) {
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(T), stream));
}

/// Harris's scheme for his kernels 1 to 6 (stages 1 to 7): each pass writes one partial per
/// block, and the same kernel runs again on the partials until one block is left, which
/// writes @p out. Partials ping-pong between the workspace's two buffers. One block of
/// @p threads threads sums @p per_block elements with @p shared_bytes of dynamic shared
/// memory.
template <class T>
void reduce_in_passes(PassKernel<T> kernel, std::size_t per_block, std::size_t shared_bytes, const T* in, T* out,
                      std::size_t n, ReduceWorkspace<T>& workspace, int threads, cudaStream_t stream) {
  const T* source = in;
  std::size_t count = n;
  int target = 0;
  while (true) {
    const std::size_t blocks = ceil_div(count, per_block);
    DeviceBuffer<T>& partials = workspace.partials(target);
    if (blocks > 1 && blocks > partials.size()) throw std::logic_error("reduction workspace too small for a pass");
    T* destination = blocks == 1 ? out : partials.data();
    kernel<<<grid_of(blocks), threads, shared_bytes, stream>>>(source, destination, count);
    STEPWISE_CHECK_LAUNCH();
    if (blocks == 1) return;
    source = destination;
    count = blocks;
    target ^= 1;
  }
}

/// The grid of a grid-sized stage: enough blocks for @p per_block elements each, but no
/// more than @p shape.blocks_per_sm on every SM (the GPU filled once).
inline unsigned resident_grid_for(std::size_t n, std::size_t per_block, const LaunchShape& shape) {
  return grid_of(std::min<std::size_t>(ceil_div(n, per_block), resident_grid(shape)));
}

/// Stages 8 to 11: one GPU-sized pass writes a partial per block, then one block of the
/// same kernel sums the partials into @p out.
template <class T>
void reduce_in_two_passes(PassKernel<T> kernel, std::size_t per_block, const T* in, T* out, std::size_t n,
                          ReduceWorkspace<T>& workspace, const LaunchShape& shape, cudaStream_t stream) {
  const unsigned grid = resident_grid_for(n, per_block, shape);
  if (grid == 1) {
    kernel<<<1, shape.threads, 0, stream>>>(in, out, n);
    STEPWISE_CHECK_LAUNCH();
    return;
  }
  T* partials = workspace.partials(0).data();
  if (grid > workspace.partials(0).size()) throw std::logic_error("reduction workspace too small for the partials");
  kernel<<<grid, shape.threads, 0, stream>>>(in, partials, n);
  STEPWISE_CHECK_LAUNCH();
  kernel<<<1, shape.threads, 0, stream>>>(partials, out, grid);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace stepwise::reduction
