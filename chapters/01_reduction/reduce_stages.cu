// Launchers of chapter 01: the grid of each pass, the passes over partial sums, and the
// run-time switch from --block to the template instantiations of stages 6 and 7.
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "check.hpp"
#include "reduce_kernels.cuh"
#include "reduce_stages.hpp"

namespace stepwise::reduction {
namespace {

/// Vector loads in flight per thread in stages 9 and 10 (4 x 16 bytes).
constexpr int kVectorsInFlight = 4;

constexpr std::size_t kMaxGridX = 2147483647;  // gridDim.x limit

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

unsigned checked_grid(std::size_t blocks) {
  if (blocks > kMaxGridX)
    throw std::invalid_argument("n too large for one grid: " + std::to_string(blocks) + " blocks");
  return static_cast<unsigned>(std::max<std::size_t>(blocks, 1));
}

/// The grid of a grid-sized stage: enough blocks for @p per_block elements each, but no
/// more than fill the GPU once (sm_count x threads_per_sm threads).
unsigned gpu_sized_grid(std::size_t n, std::size_t per_block, const ReduceConfig& config) {
  const std::size_t filling = static_cast<std::size_t>(config.sm_count) * config.threads_per_sm / config.block;
  return checked_grid(std::min(ceil_div(n, per_block), std::max<std::size_t>(filling, 1)));
}

template <class T>
void require_usable(std::size_t n, ReduceWorkspace<T>& workspace, const ReduceConfig& config) {
  validate(config);
  if (n > workspace.capacity())
    throw std::invalid_argument("workspace holds " + std::to_string(workspace.capacity()) + " elements, n is " +
                                std::to_string(n));
}

template <class T>
void require_aligned_16(const T* pointer) {
  if (reinterpret_cast<std::uintptr_t>(pointer) % 16 != 0)
    throw std::invalid_argument("vectorized reduction needs a 16-byte-aligned input");
}

/// n = 0: the sum of nothing is the identity, 0 (all-zero bytes for uint32 and float).
template <class T>
void write_identity(T* out, cudaStream_t stream) {
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(T), stream));
}

template <class T>
using PassKernel = void (*)(const T*, T*, std::size_t);

/// Harris's scheme for kernels 1 to 6: each pass writes one partial per block, and the
/// same kernel runs again on the partials until one block is left, which writes @p out.
/// Partials ping-pong between the workspace's two buffers.
template <class T>
void reduce_in_passes(PassKernel<T> kernel, std::size_t per_block, std::size_t shared_bytes, const T* in, std::size_t n,
                      T* out, ReduceWorkspace<T>& workspace, int block, cudaStream_t stream) {
  const T* source = in;
  std::size_t count = n;
  int target = 0;
  while (true) {
    const std::size_t blocks = ceil_div(count, per_block);
    DeviceBuffer<T>& partials = workspace.partials(target);
    if (blocks > 1 && blocks > partials.size()) throw std::logic_error("reduction workspace too small for a pass");
    T* destination = blocks == 1 ? out : partials.data();
    kernel<<<checked_grid(blocks), block, shared_bytes, stream>>>(source, destination, count);
    STEPWISE_CHECK_LAUNCH();
    if (blocks == 1) return;
    source = destination;
    count = blocks;
    target ^= 1;
  }
}

/// Stages 7 to 9: one GPU-sized pass writes a partial per block, then one block of the
/// same kernel sums the partials into @p out.
template <class T>
void reduce_in_two_passes(PassKernel<T> kernel, std::size_t per_block, const T* in, std::size_t n, T* out,
                          ReduceWorkspace<T>& workspace, const ReduceConfig& config, cudaStream_t stream) {
  const unsigned grid = gpu_sized_grid(n, per_block, config);
  if (grid == 1) {
    kernel<<<1, config.block, 0, stream>>>(in, out, n);
    STEPWISE_CHECK_LAUNCH();
    return;
  }
  T* partials = workspace.partials(0).data();
  if (grid > workspace.partials(0).size()) throw std::logic_error("reduction workspace too small for the partials");
  kernel<<<grid, config.block, 0, stream>>>(in, partials, n);
  STEPWISE_CHECK_LAUNCH();
  kernel<<<1, config.block, 0, stream>>>(partials, out, grid);
  STEPWISE_CHECK_LAUNCH();
}

/// The instantiation of a BLOCK-templated kernel for the run-time block size.
template <template <unsigned, class> class Pick, class T>
PassKernel<T> for_block(int block) {
  switch (block) {
    case 64:
      return Pick<64, T>::kernel;
    case 128:
      return Pick<128, T>::kernel;
    case 256:
      return Pick<256, T>::kernel;
    case 512:
      return Pick<512, T>::kernel;
    case 1024:
      return Pick<1024, T>::kernel;
    default:
      throw std::invalid_argument("unsupported block size " + std::to_string(block));
  }
}

template <unsigned BLOCK, class T>
struct CompleteUnroll {
  static constexpr PassKernel<T> kernel = kernels::reduce6_complete_unroll<BLOCK, T>;
};

template <unsigned BLOCK, class T>
struct MultiplePerThread {
  static constexpr PassKernel<T> kernel = kernels::reduce7_multiple_per_thread<BLOCK, T>;
};

template <class T, class Launch>
void launch_checked(std::size_t n, T* out, ReduceWorkspace<T>& workspace, const ReduceConfig& config,
                    cudaStream_t stream, Launch launch) {
  require_usable(n, workspace, config);
  if (n == 0) return write_identity(out, stream);
  launch();
}

}  // namespace

bool is_supported_block(int block) {
  return std::find(std::begin(kSupportedBlocks), std::end(kSupportedBlocks), block) != std::end(kSupportedBlocks);
}

ReduceConfig device_config(int block) {
  int device = 0;
  STEPWISE_CUDA_CHECK(cudaGetDevice(&device));
  ReduceConfig config;
  config.block = block;
  STEPWISE_CUDA_CHECK(cudaDeviceGetAttribute(&config.sm_count, cudaDevAttrMultiProcessorCount, device));
  STEPWISE_CUDA_CHECK(cudaDeviceGetAttribute(&config.threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  config.threads_per_sm = std::clamp(config.threads_per_sm, kMinThreadsPerSm, 2048);
  return config;
}

void validate(const ReduceConfig& config) {
  if (!is_supported_block(config.block))
    throw std::invalid_argument("threads per block must be a power of two in [64, 1024], not " +
                                std::to_string(config.block));
  if (config.sm_count < 1) throw std::invalid_argument("sm_count must be at least 1");
  if (config.threads_per_sm < kMinThreadsPerSm || config.threads_per_sm > 2048 || config.threads_per_sm < config.block)
    throw std::invalid_argument("threads_per_sm must be in [512, 2048] and at least the block size");
}

template <class T>
ReduceWorkspace<T>::ReduceWorkspace(std::size_t capacity)
    : capacity_(capacity),
      first_(std::max<std::size_t>(ceil_div(capacity, 64), 1)),
      second_(std::max<std::size_t>(ceil_div(first_.size(), 64), 1)),
      counter_(1) {
  STEPWISE_CUDA_CHECK(cudaMemset(counter_.data(), 0, sizeof(unsigned int)));
  std::size_t bytes = 0;
  const std::size_t items = std::max<std::size_t>(capacity, 1);
  if (items <= std::numeric_limits<std::uint32_t>::max())
    STEPWISE_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
                                               static_cast<std::uint32_t>(items)));
  else
    STEPWISE_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
                                               static_cast<std::uint64_t>(items)));
  cub_storage_ = DeviceBuffer<unsigned char>(std::max<std::size_t>(bytes, 1));
}

template <class T>
void reduce_interleaved_divergent(const T* in, std::size_t n, T* out, ReduceWorkspace<T>& workspace,
                                  const ReduceConfig& config, cudaStream_t stream) {
  launch_checked(n, out, workspace, config, stream, [&] {
    reduce_in_passes<T>(kernels::reduce1_interleaved_divergent<T>, config.block, config.block * sizeof(T), in, n, out,
                        workspace, config.block, stream);
  });
}

template <class T>
void reduce_interleaved_strided(const T* in, std::size_t n, T* out, ReduceWorkspace<T>& workspace,
                                const ReduceConfig& config, cudaStream_t stream) {
  launch_checked(n, out, workspace, config, stream, [&] {
    reduce_in_passes<T>(kernels::reduce2_interleaved_strided<T>, config.block, config.block * sizeof(T), in, n, out,
                        workspace, config.block, stream);
  });
}

template <class T>
void reduce_sequential(const T* in, std::size_t n, T* out, ReduceWorkspace<T>& workspace, const ReduceConfig& config,
                       cudaStream_t stream) {
  launch_checked(n, out, workspace, config, stream, [&] {
    reduce_in_passes<T>(kernels::reduce3_sequential<T>, config.block, config.block * sizeof(T), in, n, out, workspace,
                        config.block, stream);
  });
}

template <class T>
void reduce_first_add(const T* in, std::size_t n, T* out, ReduceWorkspace<T>& workspace, const ReduceConfig& config,
                      cudaStream_t stream) {
  launch_checked(n, out, workspace, config, stream, [&] {
    reduce_in_passes<T>(kernels::reduce4_first_add<T>, 2 * config.block, config.block * sizeof(T), in, n, out,
                        workspace, config.block, stream);
  });
}

template <class T>
void reduce_unroll_last_warp(const T* in, std::size_t n, T* out, ReduceWorkspace<T>& workspace,
                             const ReduceConfig& config, cudaStream_t stream) {
  launch_checked(n, out, workspace, config, stream, [&] {
    reduce_in_passes<T>(kernels::reduce5_unroll_last_warp<T>, 2 * config.block, config.block * sizeof(T), in, n, out,
                        workspace, config.block, stream);
  });
}

template <class T>
void reduce_complete_unroll(const T* in, std::size_t n, T* out, ReduceWorkspace<T>& workspace,
                            const ReduceConfig& config, cudaStream_t stream) {
  launch_checked(n, out, workspace, config, stream, [&] {
    reduce_in_passes<T>(for_block<CompleteUnroll, T>(config.block), 2 * config.block, 0, in, n, out, workspace,
                        config.block, stream);
  });
}

template <class T>
void reduce_multiple_per_thread(const T* in, std::size_t n, T* out, ReduceWorkspace<T>& workspace,
                                const ReduceConfig& config, cudaStream_t stream) {
  launch_checked(n, out, workspace, config, stream, [&] {
    reduce_in_two_passes<T>(for_block<MultiplePerThread, T>(config.block), 2 * config.block, in, n, out, workspace,
                            config, stream);
  });
}

template <class T>
void reduce_warp_shuffle(const T* in, std::size_t n, T* out, ReduceWorkspace<T>& workspace, const ReduceConfig& config,
                         cudaStream_t stream) {
  launch_checked(n, out, workspace, config, stream, [&] {
    reduce_in_two_passes<T>(kernels::reduce8_warp_shuffle<T>, 2 * config.block, in, n, out, workspace, config, stream);
  });
}

template <class T>
void reduce_vectorized(const T* in, std::size_t n, T* out, ReduceWorkspace<T>& workspace, const ReduceConfig& config,
                       cudaStream_t stream) {
  require_aligned_16(in);
  launch_checked(n, out, workspace, config, stream, [&] {
    reduce_in_two_passes<T>(kernels::reduce9_vectorized<kVectorsInFlight, T>, 4 * kVectorsInFlight * config.block, in,
                            n, out, workspace, config, stream);
  });
}

template <class T>
void reduce_single_pass(const T* in, std::size_t n, T* out, ReduceWorkspace<T>& workspace, const ReduceConfig& config,
                        cudaStream_t stream) {
  require_aligned_16(in);
  launch_checked(n, out, workspace, config, stream, [&] {
    const unsigned grid = gpu_sized_grid(n, 4 * kVectorsInFlight * config.block, config);
    if (grid > workspace.partials(0).size()) throw std::logic_error("reduction workspace too small for the partials");
    kernels::reduce10_single_pass<kVectorsInFlight, T>
        <<<grid, config.block, 0, stream>>>(in, out, n, workspace.partials(0).data(), workspace.counter());
    STEPWISE_CHECK_LAUNCH();
  });
}

template <class T>
void reduce_cub(const T* in, std::size_t n, T* out, ReduceWorkspace<T>& workspace, const ReduceConfig& config,
                cudaStream_t stream) {
  launch_checked(n, out, workspace, config, stream, [&] {
    std::size_t bytes = workspace.cub_storage_bytes();
    // 32-bit item counts where they suffice: CUB then indexes with 32-bit offsets, its fast path.
    if (n <= std::numeric_limits<std::uint32_t>::max())
      STEPWISE_CUDA_CHECK(
          cub::DeviceReduce::Sum(workspace.cub_storage(), bytes, in, out, static_cast<std::uint32_t>(n), stream));
    else
      STEPWISE_CUDA_CHECK(
          cub::DeviceReduce::Sum(workspace.cub_storage(), bytes, in, out, static_cast<std::uint64_t>(n), stream));
  });
}

#define STEPWISE_INSTANTIATE_REDUCTION(T)                                                                            \
  template class ReduceWorkspace<T>;                                                                                 \
  template void reduce_interleaved_divergent<T>(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, \
                                                cudaStream_t);                                                       \
  template void reduce_interleaved_strided<T>(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&,   \
                                              cudaStream_t);                                                         \
  template void reduce_sequential<T>(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&,            \
                                     cudaStream_t);                                                                  \
  template void reduce_first_add<T>(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&,             \
                                    cudaStream_t);                                                                   \
  template void reduce_unroll_last_warp<T>(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&,      \
                                           cudaStream_t);                                                            \
  template void reduce_complete_unroll<T>(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&,       \
                                          cudaStream_t);                                                             \
  template void reduce_multiple_per_thread<T>(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&,   \
                                              cudaStream_t);                                                         \
  template void reduce_warp_shuffle<T>(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&,          \
                                       cudaStream_t);                                                                \
  template void reduce_vectorized<T>(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&,            \
                                     cudaStream_t);                                                                  \
  template void reduce_single_pass<T>(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&,           \
                                      cudaStream_t);                                                                 \
  template void reduce_cub<T>(const T*, std::size_t, T*, ReduceWorkspace<T>&, const ReduceConfig&, cudaStream_t);

STEPWISE_INSTANTIATE_REDUCTION(std::uint32_t)
STEPWISE_INSTANTIATE_REDUCTION(float)

}  // namespace stepwise::reduction
