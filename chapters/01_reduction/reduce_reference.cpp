#include "reduce_reference.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "reduce_stages.hpp"

namespace stepwise::reduction {

std::vector<std::uint32_t> as_wrapping(const std::vector<std::int32_t>& values) {
  std::vector<std::uint32_t> bits(values.size());
  if (!values.empty()) std::memcpy(bits.data(), values.data(), values.size() * sizeof(std::int32_t));
  return bits;
}

std::uint32_t wrapping_sum(const std::vector<std::uint32_t>& values) {
  std::uint32_t sum = 0;
  for (std::uint32_t value : values) sum += value;  // unsigned: wraps mod 2^32, well defined
  return sum;
}

FloatSum float_sum(const std::vector<float>& values) {
  FloatSum result;
  for (float value : values) {
    result.sum += value;
    result.abs_sum += std::fabs(value);
  }
  return result;
}

std::size_t summation_depth_bound(std::size_t n, int sm_count) {
  const std::size_t sms = static_cast<std::size_t>(sm_count < 1 ? 1 : sm_count);
  const std::size_t threads = sms * kMinThreadsPerSm;
  std::size_t log2_n = 0;
  while ((std::size_t{1} << log2_n) < n) ++log2_n;
  const std::size_t first_pass = (n + threads - 1) / threads + 16;
  const std::size_t trees = 2 * (log2_n + 11);
  const std::size_t partials = (sms + 1) / 2 + 1;
  return first_pass + trees + partials;
}

double float_sum_tolerance(std::size_t n, int sm_count) {
  return static_cast<double>(summation_depth_bound(n, sm_count)) * std::numeric_limits<float>::epsilon();
}

}  // namespace stepwise::reduction
