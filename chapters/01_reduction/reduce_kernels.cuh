/// @file reduce_kernels.cuh
/// The reduction kernels of chapter 01, one per stage, in the order the chapter teaches them.
/// Kernels 1 to 7 follow Mark Harris's "Optimizing Parallel Reduction in CUDA" (2007)
/// closely enough to put next to his slides; 8 to 10 go on to what a 2020s GPU wants.
///
/// Napkin math (H100 SXM, HBM3): a sum reads every input once and writes one value, so
/// 2^28 int32 move 1 GiB: at the ~3.0 TB/s a large read stream reaches, the floor is
/// 1.07 GB / 3.0 TB/s = 0.36 ms (on the H200 the chapter README's tables come from, ~4.4 TB/s:
/// 0.245 ms). One add per 4 bytes is 268 M adds, nothing for 132 SMs
/// (~60 T int adds/s): the whole game is bytes in flight, instructions per byte and
/// the cost of each pass's launch. At the slides' 2^22 ints (16 MB) the floor is 5.6 us,
/// the same order as one kernel launch, so at that size launches and passes dominate.
///
/// Every kernel reads identity (0) for indices past n: the slides assume n is a multiple
/// of the block; ours keep their shape and handle any n. Elements of T are summed in T:
/// std::uint32_t (int32 data, wrapping mod 2^32) or float.
#pragma once

#include <cstddef>
#include <cstdint>

namespace stepwise::reduction::kernels {

/// The block's dynamic shared memory as an array of T (kernels 1 to 5 size it at launch).
template <class T>
__device__ __forceinline__ T* dynamic_shared() {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  return reinterpret_cast<T*>(shared_bytes);
}

/// Stage 1, interleaved addressing with divergent branching (Harris's kernel 1).
/// Each block loads blockDim.x elements into shared memory, then halves the number of
/// partial sums per step: at step s, thread tid adds sdata[tid + s] into sdata[tid] if
/// tid is a multiple of 2s. The active threads are scattered over every warp, so every
/// warp diverges (half its lanes idle at s = 1, 31 of 32 at s = 16), and `%` is slow.
template <class T>
__global__ void reduce1_interleaved_divergent(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  T* sdata = dynamic_shared<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

/// Stage 2, interleaved addressing with a strided index (Harris's kernel 2).
/// Changed: thread tid works on index 2*s*tid, so the active threads are the first
/// blockDim.x / (2s): whole warps are active or idle, no divergence while at least 32
/// threads work. New problem: at stride 2s words the lanes of a warp hit the same
/// shared-memory bank (2-way conflicts at s = 1, 4-way at s = 2, ...), serializing.
template <class T>
__global__ void reduce2_interleaved_strided(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  T* sdata = dynamic_shared<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

/// Stage 3, sequential addressing (Harris's kernel 3).
/// Changed: the stride starts at blockDim.x / 2 and halves; thread tid adds
/// sdata[tid + s]. A warp reads 32 consecutive words: one per bank, conflict free, and
/// the active threads are still the first s. Left: half the threads idle from the first
/// step on, and a __syncthreads per step even when only one warp is working.
template <class T>
__global__ void reduce3_sequential(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  T* sdata = dynamic_shared<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

/// Stage 4, first add during the global load (Harris's kernel 4).
/// Changed: each block covers 2 x blockDim.x elements and every thread adds two of them
/// on the way into shared memory: half the blocks, and no thread idle at the first add.
template <class T>
__global__ void reduce4_first_add(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  T* sdata = dynamic_shared<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (blockDim.x * 2) + threadIdx.x;
  T first = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) first += in[i + blockDim.x];
  sdata[tid] = first;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
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
__device__ __forceinline__ void warp_reduce(T* sdata, unsigned tid) {
  T sum = sdata[tid];
#pragma unroll
  for (unsigned s = 32; s > 0; s >>= 1) {
    sum += sdata[tid + s];  // every lane reads its operand ...
    __syncwarp();
    sdata[tid] = sum;  // ... before any lane overwrites one
    __syncwarp();
  }
}

/// Stage 5, unroll the last warp (Harris's kernel 5).
/// Changed: the loop stops at s = 64; the last six steps run in warp 0 through
/// warp_reduce, with no __syncthreads and no `if (tid < s)` test per step. The other
/// warps are done after the loop and leave the SM's issue slots to the last one.
template <class T>
__global__ void reduce5_unroll_last_warp(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  T* sdata = dynamic_shared<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (blockDim.x * 2) + threadIdx.x;
  T first = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) first += in[i + blockDim.x];
  sdata[tid] = first;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warp_reduce(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
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
  if (tid < 32) warp_reduce(sdata, tid);
}

/// Stage 6, completely unrolled (Harris's kernel 6).
/// Changed: the block size is a template parameter (the launcher's switch picks one of
/// five instantiations at run time), so the tree is straight-line code: no loop
/// counter, no loop branch, and statically dead steps removed.
template <unsigned BLOCK, class T>
__global__ void reduce6_complete_unroll(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T sdata[BLOCK];
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (BLOCK * 2) + threadIdx.x;
  T first = i < n ? in[i] : T(0);
  if (i + BLOCK < n) first += in[i + BLOCK];
  sdata[tid] = first;
  __syncthreads();
  tree_reduce_unrolled<BLOCK>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

/// Stage 7, multiple elements per thread (Harris's kernel 7, algorithm cascading).
/// Changed: a grid sized to fill the GPU once walks the whole array; each thread adds
/// pairs of elements in registers, gridSize apart, before the tree. The tree (and its
/// barriers) runs once per block instead of once per 2 x BLOCK elements, and a second
/// launch with one block sums the few thousand block partials.
template <unsigned BLOCK, class T>
__global__ void reduce7_multiple_per_thread(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T sdata[BLOCK];
  const unsigned tid = threadIdx.x;
  const std::size_t grid_size = static_cast<std::size_t>(BLOCK) * 2 * gridDim.x;
  T sum = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * (BLOCK * 2) + tid; i < n; i += grid_size) {
    sum += in[i];
    if (i + BLOCK < n) sum += in[i + BLOCK];
  }
  sdata[tid] = sum;
  __syncthreads();
  tree_reduce_unrolled<BLOCK>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

/// The sum of @p value over the 32 lanes of a warp, valid in lane 0 (the other lanes hold
/// partial sums): five __shfl_down_sync steps, registers only, no shared memory and no barrier. All 32
/// lanes must call it (full mask).
template <class T>
__device__ __forceinline__ T warp_sum(T value) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  return value;
}

/// The sum of @p value over the block, valid in thread 0. blockDim.x must be a multiple
/// of 32 (at most 1024); @p warp_sums is 32 elements of shared memory. Each warp sums
/// with shuffles, lane 0 of each warp writes one word, one __syncthreads, and warp 0
/// sums those words with shuffles: one barrier instead of log2(blockDim.x).
/// A second call on the same @p warp_sums needs a __syncthreads between the calls.
template <class T>
__device__ __forceinline__ T block_sum(T value, T* warp_sums) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  value = warp_sum(value);
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();
  if (warp == 0) value = warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : T(0));
  return value;
}

/// Stage 8, warp-shuffle reduction.
/// Changed from stage 7: the in-block tree. Instead of ten shared-memory steps with a
/// barrier each, warps sum in registers with __shfl_down_sync (one instruction per
/// step, no shared-memory traffic, no bank conflicts), then one barrier, then warp 0.
/// The block size is no longer needed at compile time.
template <class T>
__global__ void reduce8_warp_shuffle(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T warp_sums[32];
  const std::size_t grid_size = static_cast<std::size_t>(blockDim.x) * 2 * gridDim.x;
  T sum = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * (blockDim.x * 2) + threadIdx.x; i < n; i += grid_size) {
    sum += in[i];
    if (i + blockDim.x < n) sum += in[i + blockDim.x];
  }
  sum = block_sum(sum, warp_sums);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

/// The 16-byte vector of four T.
template <class T>
struct Vector4;
template <>
struct Vector4<std::uint32_t> {
  using type = uint4;
};
template <>
struct Vector4<float> {
  using type = float4;
};

/// The sum of the four lanes of a vector, as a pairwise tree.
template <class V>
__device__ __forceinline__ auto lanes_sum(const V& v) {
  return (v.x + v.y) + (v.z + v.w);
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
    for (int u = 0; u < VT; ++u) sum += lanes_sum(v[u]);
  }
  for (; i < vectors; i += stride) sum += lanes_sum(in4[i]);
  const std::size_t tail = vectors * 4 + thread;
  if (tail < n) sum += in[tail];
  return sum;
}

/// Stage 9, vectorized loads with several in flight.
/// Changed from stage 8: each load instruction fetches 16 bytes (LDG.128) instead of 4,
/// a quarter of the load instructions and index computations per byte, and each thread
/// has VT of them outstanding at once. The grid still fills the GPU once (sm_count x
/// threads per SM); a second launch of the same kernel with one block sums the partials.
template <int VT, class T>
__global__ void reduce9_vectorized(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T warp_sums[32];
  const T sum = block_sum(thread_sum_vectorized<VT>(in, n), warp_sums);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

/// Stage 10, single pass: the last block to finish sums the block partials.
/// Changed from stage 9: one launch instead of two. Each block writes its partial, then
/// thread 0 makes it visible device-wide (__threadfence) and takes a ticket from an
/// atomic counter; the block that draws the last ticket knows every partial is written,
/// sums them in a fixed order (so float results do not depend on which block was last)
/// and resets the counter to 0 for the next run. This saves the second launch and its
/// dependency gap, a few microseconds: small at 2^28, a large share at 2^22 to 2^24.
template <int VT, class T>
__global__ void reduce10_single_pass(const T* __restrict__ in, T* __restrict__ out, std::size_t n,
                                     T* __restrict__ partials, unsigned int* __restrict__ counter) {
  __shared__ T warp_sums[32];
  __shared__ bool is_last_block;
  const T block_total = block_sum(thread_sum_vectorized<VT>(in, n), warp_sums);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_total;
    __threadfence();  // the partial is visible to every block before the ticket is taken
    const unsigned int ticket = atomicAdd(counter, 1u);
    is_last_block = ticket == gridDim.x - 1;
  }
  __syncthreads();  // also separates the two uses of warp_sums
  if (!is_last_block) return;
  __threadfence();  // order the reads of the partials after the ticket
  T sum = 0;
  for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x) sum += __ldcg(partials + b);  // from L2, not L1
  sum = block_sum(sum, warp_sums);
  if (threadIdx.x == 0) {
    out[0] = sum;
    *counter = 0;  // ready for the next launch (kernel boundaries order it)
  }
}

}  // namespace stepwise::reduction::kernels
