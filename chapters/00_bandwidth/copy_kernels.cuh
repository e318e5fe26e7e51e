/// @file copy_kernels.cuh
/// The copy kernels of chapter 00, one per stage, in the order the chapter teaches them.
///
/// Napkin math (H100 SXM, HBM3): peak 3.35 TB/s; cudaMemcpy reaches about 2.98 TB/s
/// (read + write). Copying 2^28 int32 moves 2 x 1 GiB, so the floor is 2.15 GB / 2.98 TB/s
/// = 0.72 ms. No stage does arithmetic worth counting: every difference between them is
/// how many bytes are in flight and how many instructions it takes to keep them there.
#pragma once

#include <cstddef>
#include <cstdint>

namespace stepwise::bandwidth::kernels {

/// Stage 1, one element per thread: the first kernel everyone writes. One 4-byte load
/// and store per thread, and a whole block's start-up (index math, bounds check) per
/// 4 x threads bytes. The grid has n / threads blocks: 1M blocks at 2^28.
__global__ void copy_one_per_thread(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out,
                                    std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

/// Stage 2, grid-stride loop: a grid sized to fill the GPU once (blocks_per_sm x SMs)
/// walks the array. Block start-up is paid once per thread instead of once per element,
/// and the loop works for any n with any grid.
__global__ void copy_grid_stride(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = in[i];
}

/// Stage 3, warp-stride sequences (as in Billeter et al.'s stream compaction): warp w
/// owns the contiguous sequence [w*S, (w+1)*S) and walks it 32 elements at a time, each
/// lane one element, so every access of the warp is one coalesced 128-byte line. A warp
/// touches memory no other warp touches: the shape compaction and scan need. With
/// __restrict__ pointers ptxas unrolls this loop by four and issues the four loads before
/// the stores (LDG at +0, +0x80, +0x100, +0x180 in the SASS): 16 bytes in flight per
/// thread, as many as one int4, which is why it runs at memcpy speed with plain ints.
__global__ void copy_warp_sequences(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out, std::size_t n,
                                    std::size_t sequence) {
  const std::size_t warp = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t begin = warp * sequence;
  if (begin >= n) return;
  const std::size_t end = begin + sequence < n ? begin + sequence : n;
  for (std::size_t i = begin + lane; i < end; i += 32) out[i] = in[i];
}

/// Copies elements [from, n) with the whole grid, one per thread: the tail that the
/// vector stages leave when n is not a multiple of their width.
__device__ __forceinline__ void copy_tail(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out,
                                          std::size_t from, std::size_t n) {
  const std::size_t i = from + static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

/// Stage 4, int2 vectors: each thread moves 8 bytes per load instruction instead of 4.
/// Half the instructions (and half the loop iterations) for the same bytes.
__global__ void copy_vector2(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out, std::size_t n) {
  const std::size_t pairs = n / 2;
  const int2* in2 = reinterpret_cast<const int2*>(in);
  int2* out2 = reinterpret_cast<int2*>(out);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < pairs; i += stride)
    out2[i] = in2[i];
  copy_tail(in, out, pairs * 2, n);
}

/// Stage 5, int4 vectors: 16 bytes per instruction (LDG.128 / STG.128), the widest a
/// thread can issue. A quarter of stage 2's memory instructions.
__global__ void copy_vector4(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out, std::size_t n) {
  const std::size_t quads = n / 4;
  const int4* in4 = reinterpret_cast<const int4*>(in);
  int4* out4 = reinterpret_cast<int4*>(out);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < quads; i += stride)
    out4[i] = in4[i];
  copy_tail(in, out, quads * 4, n);
}

/// Stage 6, int4 with UNROLL loads in flight: stage 5's loop issues a load and must wait
/// for it (several hundred ns from DRAM) before the store, so each thread has 16 bytes
/// outstanding. Here every thread issues UNROLL independent 16-byte loads, then the
/// stores: UNROLL times the bytes in flight per thread (Little's law: bandwidth = bytes in
/// flight / latency), so a quarter of the resident threads reach the same bandwidth (the
/// sweep's best is 512 threads per SM). With 2048 threads per SM, stage 5 already covers
/// the latency, so on an H200 this is no faster than stage 5, only leaner.
template <int UNROLL>
__global__ void copy_vector4_unrolled(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out,
                                      std::size_t n) {
  const std::size_t quads = n / 4;
  const int4* in4 = reinterpret_cast<const int4*>(in);
  int4* out4 = reinterpret_cast<int4*>(out);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (UNROLL - 1) * stride < quads; i += UNROLL * stride) {
    int4 values[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) values[u] = in4[i + u * stride];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) out4[i + u * stride] = values[u];
  }
  for (; i < quads; i += stride) out4[i] = in4[i];
  copy_tail(in, out, quads * 4, n);
}

/// Stage 7, int4 tiles: what the sweep of stages 1-6 points to. Block b owns the
/// contiguous tile of VECTORS x blockDim int4 starting at b x tile, issues all VECTORS
/// loads (each one coalesced across the warp) before its first store, and exits: no
/// loop, no loop-carried index arithmetic, a grid as large as the array (as in stage 1)
/// with stage 5's 16-byte width. The sweep found VECTORS = 1 best on an H200: many short
/// blocks, each 4 KB, reach cudaMemcpy's bandwidth.
template <int VECTORS>
__global__ void copy_vector4_tiles(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out, std::size_t n) {
  const std::size_t quads = n / 4;
  const int4* in4 = reinterpret_cast<const int4*>(in);
  int4* out4 = reinterpret_cast<int4*>(out);
  const std::size_t tile_begin = static_cast<std::size_t>(blockIdx.x) * blockDim.x * VECTORS + threadIdx.x;
  int4 values[VECTORS];
#pragma unroll
  for (int v = 0; v < VECTORS; ++v) {
    const std::size_t i = tile_begin + static_cast<std::size_t>(v) * blockDim.x;
    if (i < quads) values[v] = in4[i];
  }
#pragma unroll
  for (int v = 0; v < VECTORS; ++v) {
    const std::size_t i = tile_begin + static_cast<std::size_t>(v) * blockDim.x;
    if (i < quads) out4[i] = values[v];
  }
  copy_tail(in, out, quads * 4, n);
}

}  // namespace stepwise::bandwidth::kernels
