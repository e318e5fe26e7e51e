#include "host/launch.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "host/device.hpp"

namespace stepwise {

unsigned grid_of(std::size_t blocks) {
  constexpr std::size_t kMaxGridX = 2147483647;
  if (blocks > kMaxGridX)
    throw std::invalid_argument("n too large for one grid: " + std::to_string(blocks) + " blocks");
  return static_cast<unsigned>(blocks == 0 ? 1 : blocks);
}

unsigned resident_grid(const LaunchShape& shape) {
  if (shape.blocks_per_sm < 1) throw std::invalid_argument("blocks per SM must be at least 1");
  return grid_of(static_cast<std::size_t>(shape.blocks_per_sm) * static_cast<std::size_t>(current_sm_count()));
}

void require_threads(int threads) {
  if (threads < 32 || threads > 1024 || threads % 32 != 0)
    throw std::invalid_argument("threads per block must be a multiple of 32 in [32, 1024], not " +
                                std::to_string(threads));
}

void require_aligned(const void* pointer, std::size_t alignment) {
  if (reinterpret_cast<std::uintptr_t>(pointer) % alignment != 0)
    throw std::invalid_argument("this stage needs " + std::to_string(alignment) + "-byte-aligned pointers");
}

void require_shape(const LaunchShape& shape, const LaunchShape& compiled) {
  if (shape != compiled)
    throw std::invalid_argument("this stage is compiled for " + describe(compiled) + " only, not " + describe(shape));
}

}  // namespace stepwise
