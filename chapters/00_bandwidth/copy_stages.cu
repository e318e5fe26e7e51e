#include "copy_stages.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "check.hpp"
#include "copy_kernels.cuh"
#include "device.hpp"

namespace stepwise::bandwidth {
namespace {

constexpr std::size_t kMaxGridX = 2147483647;  // gridDim.x limit

unsigned grid_for(std::size_t work_items, int threads) {
  const std::size_t blocks = (work_items + threads - 1) / threads;
  if (blocks > kMaxGridX) throw std::invalid_argument("n too large for a one-pass grid: " + std::to_string(blocks));
  return static_cast<unsigned>(blocks == 0 ? 1 : blocks);
}

unsigned persistent_grid(const CopyConfig& config) {
  return static_cast<unsigned>(config.blocks_per_sm * current_sm_count());
}

void require_valid(const CopyConfig& config) {
  if (config.threads < 32 || config.threads > 1024 || config.threads % 32 != 0)
    throw std::invalid_argument("threads per block must be a multiple of 32 in [32, 1024]");
  if (config.blocks_per_sm < 1) throw std::invalid_argument("blocks per SM must be at least 1");
  if (config.sequence < 32 || config.sequence % 32 != 0)
    throw std::invalid_argument("warp sequence must be a positive multiple of 32");
  const int vectors = config.vectors_per_thread;
  if (vectors != 1 && vectors != 2 && vectors != 4 && vectors != 8)
    throw std::invalid_argument("vectors per thread must be 1, 2, 4 or 8");
}

void require_aligned(const void* pointer, std::size_t alignment) {
  if (reinterpret_cast<std::uintptr_t>(pointer) % alignment != 0)
    throw std::invalid_argument("vectorized copy needs " + std::to_string(alignment) + "-byte-aligned pointers");
}

}  // namespace

void copy_one_per_thread(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                         cudaStream_t stream) {
  require_valid(config);
  if (n == 0) return;
  kernels::copy_one_per_thread<<<grid_for(n, config.threads), config.threads, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

void copy_grid_stride(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                      cudaStream_t stream) {
  require_valid(config);
  if (n == 0) return;
  kernels::copy_grid_stride<<<persistent_grid(config), config.threads, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

void copy_warp_sequences(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                         cudaStream_t stream) {
  require_valid(config);
  if (n == 0) return;
  const std::size_t sequence = static_cast<std::size_t>(config.sequence);
  const std::size_t warps = (n + sequence - 1) / sequence;
  kernels::copy_warp_sequences<<<grid_for(warps * 32, config.threads), config.threads, 0, stream>>>(in, out, n,
                                                                                                    sequence);
  STEPWISE_CHECK_LAUNCH();
}

void copy_vector2(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                  cudaStream_t stream) {
  require_valid(config);
  require_aligned(in, 8);
  require_aligned(out, 8);
  if (n == 0) return;
  kernels::copy_vector2<<<persistent_grid(config), config.threads, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

void copy_vector4(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                  cudaStream_t stream) {
  require_valid(config);
  require_aligned(in, 16);
  require_aligned(out, 16);
  if (n == 0) return;
  kernels::copy_vector4<<<persistent_grid(config), config.threads, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

void copy_vector4_unrolled(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                           cudaStream_t stream) {
  require_valid(config);
  require_aligned(in, 16);
  require_aligned(out, 16);
  if (n == 0) return;
  kernels::copy_vector4_unrolled<4><<<persistent_grid(config), config.threads, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

void copy_vector4_tiles(const std::int32_t* in, std::int32_t* out, std::size_t n, const CopyConfig& config,
                        cudaStream_t stream) {
  require_valid(config);
  require_aligned(in, 16);
  require_aligned(out, 16);
  if (n == 0) return;
  const std::size_t vectors = static_cast<std::size_t>(config.vectors_per_thread);
  const unsigned grid = grid_for((n / 4 + vectors - 1) / vectors, config.threads);  // >= 1: block 0 copies the tail
  switch (config.vectors_per_thread) {
    case 1:
      kernels::copy_vector4_tiles<1><<<grid, config.threads, 0, stream>>>(in, out, n);
      break;
    case 2:
      kernels::copy_vector4_tiles<2><<<grid, config.threads, 0, stream>>>(in, out, n);
      break;
    case 4:
      kernels::copy_vector4_tiles<4><<<grid, config.threads, 0, stream>>>(in, out, n);
      break;
    default:
      kernels::copy_vector4_tiles<8><<<grid, config.threads, 0, stream>>>(in, out, n);
      break;
  }
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace stepwise::bandwidth
