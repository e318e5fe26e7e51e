/// @file reduce_stages.hpp
/// Chapter 01: parallel reduction, from Harris's kernel 1 to a single-pass kernel that
/// competes with cub::DeviceReduce::Sum.
///
/// Every launcher reduces @p n values at @p in to ONE value written to @p out[0], with
/// every pass it needs (per-block partial sums, then passes over the partials) enqueued
/// on @p stream. All are correct for any n >= 0 (n = 0 writes the identity, 0), any
/// supported block size, and index with 64 bits.
///
/// Element types: `std::uint32_t` and `float`. The chapter's int32 data is summed as
/// uint32 (two's complement, wrapping mod 2^32): that addition is associative and
/// commutative, so every stage, whatever its order of additions, must give the bit-exact
/// sum the CPU computes, and no signed overflow (undefined behaviour) ever happens.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "device_buffer.hpp"

namespace stepwise::reduction {

/// Block sizes every stage supports: powers of two from 64 (kernel 5's last-warp step
/// reads sdata[tid + 32]) to 1024 (the hardware limit).
inline constexpr int kSupportedBlocks[] = {64, 128, 256, 512, 1024};
/// True for a block size in kSupportedBlocks.
bool is_supported_block(int block);

/// The fewest resident threads per SM a grid-sized stage (7 to 10) may be configured for.
inline constexpr int kMinThreadsPerSm = 512;

/// Launch shape of a reduction stage.
struct ReduceConfig {
  int block = 256;            ///< threads per block, one of kSupportedBlocks
  int sm_count = 1;           ///< SMs of the device: grid-sized stages launch sm_count x threads_per_sm threads
  int threads_per_sm = 2048;  ///< threads per SM for grid-sized stages, in [kMinThreadsPerSm, 2048], >= block
};

/// The configuration for @p block threads per block on the current device (its SM count,
/// and as many threads per SM as it can hold).
ReduceConfig device_config(int block);

/// @throws std::invalid_argument for an unsupported block size or threads_per_sm.
void validate(const ReduceConfig& config);

/// Device workspace of the reductions of up to @p capacity elements: two ping-pong
/// buffers of per-block partial sums, the last-block counter of the single-pass stage
/// (zero between runs), and the temporary storage of cub::DeviceReduce::Sum. Allocated
/// once, before any timing.
template <class T>
class ReduceWorkspace {
 public:
  explicit ReduceWorkspace(std::size_t capacity);

  std::size_t capacity() const { return capacity_; }
  DeviceBuffer<T>& partials(int which) { return which == 0 ? first_ : second_; }
  unsigned int* counter() { return counter_.data(); }
  void* cub_storage() { return cub_storage_.data(); }
  std::size_t cub_storage_bytes() const { return cub_storage_.size(); }

 private:
  std::size_t capacity_;
  DeviceBuffer<T> first_;   ///< ceil(capacity / 64) partials: one per block of the smallest block size
  DeviceBuffer<T> second_;  ///< the partials of the partials
  DeviceBuffer<unsigned int> counter_;
  DeviceBuffer<unsigned char> cub_storage_;
};

/// What every stage's launcher looks like.
template <class T>
using ReduceLauncher = void (*)(const T* in, std::size_t n, T* out, ReduceWorkspace<T>& workspace,
                                const ReduceConfig& config, cudaStream_t stream);

/// Stage 1: interleaved addressing, divergent branch `tid % (2*s) == 0`.
template <class T>
void reduce_interleaved_divergent(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, cudaStream_t);
/// Stage 2: interleaved addressing, strided index: no divergence, bank conflicts.
template <class T>
void reduce_interleaved_strided(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, cudaStream_t);
/// Stage 3: sequential addressing: conflict free, half the threads idle at the first step.
template <class T>
void reduce_sequential(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, cudaStream_t);
/// Stage 4: first add during the global load, half the blocks.
template <class T>
void reduce_first_add(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, cudaStream_t);
/// Stage 5: last warp unrolled (with __syncwarp, safe on Volta and later).
template <class T>
void reduce_unroll_last_warp(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, cudaStream_t);
/// Stage 6: completely unrolled, the block size a template parameter picked at run time.
template <class T>
void reduce_complete_unroll(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, cudaStream_t);
/// Stage 7: many elements per thread (grid-stride loop over a GPU-sized grid), then one block.
template <class T>
void reduce_multiple_per_thread(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, cudaStream_t);
/// Stage 8: stage 7 with the in-block tree done by warp shuffles.
template <class T>
void reduce_warp_shuffle(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, cudaStream_t);
/// Stage 9: 16-byte vector loads, four in flight per thread.
template <class T>
void reduce_vectorized(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, cudaStream_t);
/// Stage 10: stage 9 in one launch: the last block to finish reduces the block partials.
template <class T>
void reduce_single_pass(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, cudaStream_t);
/// Library baseline: cub::DeviceReduce::Sum (config unused).
template <class T>
void reduce_cub(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, cudaStream_t);

/// A row of the chapter: number (0 for the library), name, lesson, launcher.
template <class T>
struct ReduceStage {
  int number;
  const char* name;
  const char* lesson;
  ReduceLauncher<T> launch;
  bool grid_sized;  ///< launches sm_count x threads_per_sm threads (stages 7 to 10)
  /// The block size the chapter runs this stage with, found by --sweep on an H200
  /// (2026-11-21); 0: the --block option (stages 1 to 8, the shared-memory trees).
  int tuned_block;
};

/// Every stage of the chapter in order, then the CUB baseline.
template <class T>
const std::vector<ReduceStage<T>>& reduce_stages();

}  // namespace stepwise::reduction
