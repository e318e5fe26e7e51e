#include "host/data.hpp"

#include "host/parallel.hpp"
#include "host/sizes.hpp"

#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>

namespace stepwise {

std::vector<std::int32_t> random_ints(std::size_t n, std::uint64_t seed, std::int32_t lo, std::int32_t hi) {
  if (lo > hi) throw std::invalid_argument("random_ints: lo > hi");
  const std::uint64_t span = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi) - lo) + 1;
  const std::uint64_t stream = splitmix64(seed);
  std::vector<std::int32_t> values(n);
  for_each_range(n, kHostChunk, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i)
      values[i] = static_cast<std::int32_t>(lo + static_cast<std::int64_t>(splitmix64(stream + i) % span));
  });
  return values;
}

std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo, float hi) {
  if (!(lo < hi)) throw std::invalid_argument("random_floats: need lo < hi");
  const std::uint64_t stream = splitmix64(seed ^ 0x5DEECE66Dull);
  std::vector<float> values(n);
  for_each_range(n, kHostChunk, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      const double unit = static_cast<double>(splitmix64(stream + i) >> 11) * 0x1.0p-53;  // [0, 1)
      values[i] = static_cast<float>(lo + unit * (static_cast<double>(hi) - lo));
      if (values[i] >= hi) values[i] = lo;  // rounding to float can reach hi
    }
  });
  return values;
}

std::uint64_t fresh_seed() {
  if (const char* fixed = std::getenv("STEPWISE_TEST_SEED")) {
    try {
      return parse_unsigned(fixed);
    } catch (const std::invalid_argument& error) {
      throw std::invalid_argument(std::string("STEPWISE_TEST_SEED: ") + error.what());
    }
  }
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

}  // namespace stepwise
