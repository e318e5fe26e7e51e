// The reference of chapter 01: wrapping int32 sums, double sums of floats, and the float tolerance.
#include "reduce_reference.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "host/data.hpp"
#include "reduction.hpp"

namespace stepwise::reduction {

template <class T>
std::vector<T> random_input(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, float>)
    return random_floats(n, seed, -1.0f, 2.0f);
  else
    return as_wrapping(
        random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()));
}

template std::vector<std::uint32_t> random_input<std::uint32_t>(std::size_t, std::uint64_t);
template std::vector<float> random_input<float>(std::size_t, std::uint64_t);

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

template <class T>
Reference<T> reference_sum(const std::vector<T>& values) {
  if constexpr (std::is_same_v<T, float>)
    return float_sum(values);
  else
    return wrapping_sum(values);
}

template <class T>
Check check_sum(const std::vector<T>& got, const Reference<T>& want, double tolerance) {
  if constexpr (std::is_same_v<T, float>)
    return compare_within(got, {want.sum}, {want.abs_sum}, tolerance);
  else
    return compare_exact(got, {want});
}

template Reference<std::uint32_t> reference_sum<std::uint32_t>(const std::vector<std::uint32_t>&);
template Reference<float> reference_sum<float>(const std::vector<float>&);
template Check check_sum<std::uint32_t>(const std::vector<std::uint32_t>&, const std::uint32_t&, double);
template Check check_sum<float>(const std::vector<float>&, const FloatSum&, double);

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
