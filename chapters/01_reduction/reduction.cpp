// The table of chapter 01, in the order of the lessons, and the host side every stage
// shares: the shapes it accepts and sweeps, and the workspace.
#include "reduction.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "host/check.hpp"
#include "host/launch.hpp"

namespace stepwise::reduction {

template <class T>
const std::vector<ReduceStage<T>>& reduce_stages() {
  static const std::vector<ReduceStage<T>> table = numbered<ReduceStage<T>>({
      interleaved_divergent<T>(),       // stages/01_interleaved_divergent.cu       Harris's kernel 1
      interleaved_divergent_mask<T>(),  // stages/02_interleaved_divergent_mask.cu  kernel 1 without `%`
      interleaved_strided<T>(),         // stages/03_interleaved_strided.cu         Harris's kernel 2
      sequential<T>(),                  // stages/04_sequential.cu                  Harris's kernel 3
      first_add<T>(),                   // stages/05_first_add.cu                   Harris's kernel 4
      unroll_last_warp<T>(),            // stages/06_unroll_last_warp.cu            Harris's kernel 5
      complete_unroll<T>(),             // stages/07_complete_unroll.cu             Harris's kernel 6
      multiple_per_thread<T>(),         // stages/08_multiple_per_thread.cu         Harris's kernel 7
      warp_shuffle<T>(),                // stages/09_warp_shuffle.cu
      vectorized<T>(),                  // stages/10_vectorized.cu
      large_blocks<T>(),                // stages/11_large_blocks.cu
      single_pass<T>(),                 // stages/12_single_pass.cu
      library_cub_reduce<T>(),          // stages/lib_cub_reduce.cu
  });
  return table;
}

template const std::vector<ReduceStage<std::uint32_t>>& reduce_stages<std::uint32_t>();
template const std::vector<ReduceStage<float>>& reduce_stages<float>();

void require_block(const LaunchShape& shape) {
  const std::vector<int> blocks = Blocks::values();
  if (std::find(blocks.begin(), blocks.end(), shape.threads) == blocks.end())
    throw std::invalid_argument("threads per block must be a power of two in [64, 1024], not " +
                                std::to_string(shape.threads));
}

void require_resident_threads(const LaunchShape& shape) {
  require_block(shape);
  const long threads_per_sm = static_cast<long>(shape.threads) * shape.blocks_per_sm;
  if (threads_per_sm < kMinThreadsPerSm || threads_per_sm > kMaxThreadsPerSm)
    throw std::invalid_argument("threads per SM (threads x blocks per SM) must be in [512, 2048], not " +
                                std::to_string(threads_per_sm));
}

std::vector<LaunchShape> block_sweep() { return shape_grid(Blocks::values()); }

std::vector<LaunchShape> resident_sweep() {
  std::vector<LaunchShape> shapes;
  for (int block : Blocks::values())
    for (int threads_per_sm : {512, 1024, 2048})
      if (block <= threads_per_sm) shapes.push_back({block, 0, threads_per_sm / block});
  return shapes;
}

LaunchShape with_block(const LaunchShape& shape, int block) {
  if (shape.blocks_per_sm == 0) return {block, shape.items, 0};
  return {block, shape.items, shape.threads * shape.blocks_per_sm / block};
}

template <class T>
ReduceWorkspace<T>::ReduceWorkspace(std::size_t capacity)
    : capacity_(capacity),
      first_(std::max<std::size_t>(ceil_div(capacity, 64), 1)),
      second_(std::max<std::size_t>(ceil_div(first_.size(), 64), 1)),
      counter_(1),
      cub_storage_(std::max<std::size_t>(cub_sum_storage_bytes<T>(capacity), 1)) {
  STEPWISE_CUDA_CHECK(cudaMemset(counter_.data(), 0, sizeof(unsigned int)));
}

template <class T>
void ReduceWorkspace<T>::require_capacity(std::size_t n) const {
  if (n > capacity_)
    throw std::invalid_argument("workspace holds " + std::to_string(capacity_) + " elements, n is " +
                                std::to_string(n));
}

template class ReduceWorkspace<std::uint32_t>;
template class ReduceWorkspace<float>;

}  // namespace stepwise::reduction
