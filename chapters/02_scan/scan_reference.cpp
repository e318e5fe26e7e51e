// The chapter's inputs and CPU references, and the float error bound of scan_reference.hpp.
#include "scan_reference.hpp"

#include <cmath>
#include <limits>

#include "host/data.hpp"

namespace stepwise::scan {

double float_chain_depth(std::size_t i) { return 80.0 + static_cast<double>(i / 128); }

std::vector<double> float_reference(const std::vector<float>& input, ScanKind kind) {
  std::vector<double> reference(input.size());
  double running = 0.0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const double next = running + static_cast<double>(input[i]);
    reference[i] = kind == ScanKind::exclusive ? running : next;
    running = next;
  }
  return reference;
}

std::vector<double> float_error_scale(const std::vector<float>& input) {
  std::vector<double> scale(input.size());
  double absolute_sum = 0.0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    absolute_sum += std::fabs(static_cast<double>(input[i]));
    scale[i] = float_chain_depth(i) * absolute_sum;
  }
  return scale;
}

template <class Op>
std::vector<typename Op::value_type> scan_input(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<Op, FloatAdd>) {
    return random_floats(n, seed, -1.0f, 1.0f);
  } else {
    constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
    constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
    std::vector<std::int32_t> ints = random_ints(n, seed, kMin, kMax);
    if constexpr (std::is_same_v<Op, WrappingAdd>) {
      return ints;
    } else {
      const std::vector<std::int32_t> offsets = random_ints(n, splitmix64(seed), kMin, kMax);
      std::vector<Affine> maps(n);
      for (std::size_t i = 0; i < n; ++i)
        maps[i] = {static_cast<std::uint32_t>(ints[i]) | 1u, static_cast<std::uint32_t>(offsets[i])};
      return maps;
    }
  }
}

template <class Op>
ScanReference<Op>::ScanReference(const std::vector<T>& input, ScanKind kind) : kind_(kind) {
  if constexpr (std::is_same_v<T, float>) scale_ = float_error_scale(input);
  rescan(input);
}

template <class Op>
void ScanReference<Op>::rescan(const std::vector<T>& input) {
  if constexpr (std::is_same_v<T, float>) {
    want_ = float_reference(input, kind_);
  } else {
    want_.resize(input.size());
    sequential_scan<Op>(input.data(), want_.data(), input.size(), kind_);
  }
}

template <class Op>
Check ScanReference<Op>::check(const std::vector<T>& got) const {
  if constexpr (std::is_same_v<T, float>)
    return compare_within(got, want_, scale_, kFloatTolerance);
  else
    return compare_exact(got, want_);
}

template std::vector<std::int32_t> scan_input<WrappingAdd>(std::size_t, std::uint64_t);
template std::vector<float> scan_input<FloatAdd>(std::size_t, std::uint64_t);
template std::vector<Affine> scan_input<ComposeAffine>(std::size_t, std::uint64_t);
template class ScanReference<WrappingAdd>;
template class ScanReference<FloatAdd>;
template class ScanReference<ComposeAffine>;

}  // namespace stepwise::scan
