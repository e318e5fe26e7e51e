/// @file copy_stages.hpp
/// Chapter 00: copy kernels, the ceiling every other chapter is measured against.
///
/// Each launcher enqueues one copy of @p n int32 values from @p in to @p out on @p stream.
/// All of them are correct for any n >= 0 and index with 64 bits. The vectorized ones
/// need 16-byte-aligned pointers (cudaMalloc gives 256) and copy the n % 4 tail separately.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace stepwise::bandwidth {

/// Launch shape of a copy stage; each stage reads the fields it uses.
struct CopyConfig {
  int threads = 256;           ///< threads per block
  int blocks_per_sm = 8;       ///< grid = blocks_per_sm x SM count (grid-stride stages)
  int sequence = 32 * 64;      ///< elements per warp (warp-sequence stage), a multiple of 32
  int vectors_per_thread = 4;  ///< int4 loads in flight per thread (tile stage): 1, 2, 4 or 8
};

/// Stage 1: one element per thread, grid = ceil(n / threads).
void copy_one_per_thread(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                         cudaStream_t stream);
/// Stage 2: a fixed grid that strides over the array.
void copy_grid_stride(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                      cudaStream_t stream);
/// Stage 3: each warp copies its own contiguous sequence of config.sequence elements.
void copy_warp_sequences(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                         cudaStream_t stream);
/// Stage 4: grid-stride over int2 (8-byte) loads and stores.
void copy_vector2(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                  cudaStream_t stream);
/// Stage 5: grid-stride over int4 (16-byte) loads and stores.
void copy_vector4(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                  cudaStream_t stream);
/// Stage 6: int4, four independent loads in flight per thread before the first store.
void copy_vector4_unrolled(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                           cudaStream_t stream);

/// Stage 7: each block copies one contiguous tile of threads x vectors_per_thread int4,
/// all loads issued before the first store; no loop, a grid as large as the array.
void copy_vector4_tiles(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                        cudaStream_t stream);

}  // namespace stepwise::bandwidth
