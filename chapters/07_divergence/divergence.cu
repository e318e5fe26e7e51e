// CUB's temporary storage for the remaps: the largest of the sort and the selections.
#include <algorithm>

#include "divergence.cuh"

namespace stepwise::divergence {

std::size_t cub_temp_bytes(std::size_t n) {
  const auto count = static_cast<std::uint32_t>(n);
  std::size_t sort = 0, select_indices = 0, select_keys = 0;
  STEPWISE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, sort, static_cast<const std::uint8_t*>(nullptr), static_cast<std::uint8_t*>(nullptr),
      static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr), count, 0, 3));
  STEPWISE_CUDA_CHECK(cub::DeviceSelect::Flagged(
      nullptr, select_indices, thrust::counting_iterator<std::uint32_t>(0), static_cast<const std::uint8_t*>(nullptr),
      static_cast<std::uint32_t*>(nullptr), static_cast<unsigned long long*>(nullptr), count));
  STEPWISE_CUDA_CHECK(cub::DeviceSelect::Flagged(
      nullptr, select_keys, static_cast<const std::uint8_t*>(nullptr), static_cast<const std::uint8_t*>(nullptr),
      static_cast<std::uint8_t*>(nullptr), static_cast<unsigned long long*>(nullptr), count));
  return std::max({sort, select_indices, select_keys, std::size_t{256}});
}

}  // namespace stepwise::divergence
