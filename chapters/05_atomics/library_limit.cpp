#include "library_limit.hpp"

#include <algorithm>
#include <limits>

#include "host/sizes.hpp"

namespace stepwise::atomics {
namespace {

constexpr std::uint64_t kIntMax = std::numeric_limits<std::int32_t>::max();

}  // namespace

std::uint64_t cub_histogram_blocks(std::uint64_t n, std::uint64_t resident_blocks) {
  const std::uint64_t tiles = n / kCubHistogramTileKeys + (n % kCubHistogramTileKeys != 0 ? 1 : 0);
  return std::min(tiles, resident_blocks);
}

bool cub_histogram_offsets_fit(std::uint64_t blocks, int bin_count) {
  if (blocks <= 1 || bin_count <= 0) return true;
  return blocks - 1 <= kIntMax / static_cast<std::uint64_t>(bin_count);
}

bool cub_histogram_fits(std::uint64_t n, int bin_count, int sm_count, int blocks_per_sm) {
  const std::uint64_t resident =
      static_cast<std::uint64_t>(std::max(sm_count, 0)) * static_cast<std::uint64_t>(std::max(blocks_per_sm, 0));
  return cub_histogram_offsets_fit(cub_histogram_blocks(n, resident), bin_count);
}

std::uint64_t cub_histogram_blocks_of_temp(std::size_t temp_bytes, int bin_count) {
  return temp_bytes / (4 * static_cast<std::uint64_t>(std::max(bin_count, 1)));
}

std::uint64_t cub_histogram_max_keys(int bin_count) {
  return (kIntMax / static_cast<std::uint64_t>(std::max(bin_count, 1)) + 1) * kCubHistogramTileKeys;
}

std::string cub_histogram_limit_note(std::uint64_t n, int bin_count, std::uint64_t blocks) {
  return "cub::DeviceHistogram left out: CUB finds each block's privatized bins at block x bins in 32-bit int, "
         "and " +
         std::to_string(blocks) + " blocks (for " + format_count(n) + " keys) x " +
         format_count(static_cast<std::uint64_t>(bin_count)) + " bins pass 2^31 - 1; at these bins the library " +
         "takes at most " + format_count(cub_histogram_max_keys(bin_count)) + " keys";
}

}  // namespace stepwise::atomics
