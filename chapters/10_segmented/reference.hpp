/// @file reference.hpp
/// The CPU references of the chapter's problems and the check of a float output: the plainest
/// sequential loops over the segments, exact for int32 (sums wrap mod 2^32: they are computed in
/// uint32, whose wrap-around is defined), in double for float32 and float64. Host code only.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "host/verify.hpp"

namespace stepwise::segmented {

/// The tolerance of a float32 or float64 sum of one segment, relative to the sum of |x| over that
/// segment: |got - want| <= 16 u x sum |x| (u = 2^-24 float32, 2^-53 float64). Any summation
/// order of len terms is within (len - 1) u sum |x| of the exact sum (Higham 4.2); on the
/// chapter's values (uniform in [-1, 1), mean 0) the rounding errors of a sequential sum add up
/// as a random walk, about u x sum |x| whatever the length, so 16 u leaves a factor of ten.
/// It can fail: an item dropped or counted twice moves a sum by |x|, far more than 16 u x sum |x|
/// unless the segment holds millions of items; an empty segment and a segment of one item must
/// come out exact.
template <class T>
constexpr double sum_tolerance() {
  return sizeof(T) == 4 ? 16.0 / (1 << 24) : 16.0 / 9007199254740992.0;
}

/// A segmented result on the host: exact values for int32, else double values and the error
/// scale of each (sum |x| of its segment, or of its prefix for a scan).
template <class T>
struct Expected {
  std::vector<T> exact;       ///< int32: the exact answer
  std::vector<double> value;  ///< float32, float64: the answer in double
  std::vector<double> scale;  ///< float32, float64: sum |x| behind each value
};

/// The sum of each segment of @p values cut by @p offsets (0 for an empty segment).
template <class T>
Expected<T> segreduce_reference(const std::vector<T>& values, const std::vector<std::uint64_t>& offsets) {
  const std::size_t segments = offsets.size() - 1;
  Expected<T> want;
  if constexpr (std::is_integral_v<T>) {
    want.exact.resize(segments);
    for (std::size_t s = 0; s < segments; ++s) {
      std::uint32_t sum = 0;
      for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) sum += static_cast<std::uint32_t>(values[i]);
      want.exact[s] = static_cast<T>(sum);
    }
  } else {
    want.value.resize(segments);
    want.scale.resize(segments);
    for (std::size_t s = 0; s < segments; ++s) {
      double sum = 0.0;
      double magnitude = 0.0;
      for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
        sum += static_cast<double>(values[i]);
        magnitude += std::fabs(static_cast<double>(values[i]));
      }
      want.value[s] = sum;
      want.scale[s] = magnitude;
    }
  }
  return want;
}

/// The inclusive scan of each segment of @p values cut by @p offsets: item i holds the sum of the
/// items of its segment up to and including i; the scale of a float item is the sum of |x| over
/// the same items.
template <class T>
Expected<T> segscan_reference(const std::vector<T>& values, const std::vector<std::uint64_t>& offsets) {
  Expected<T> want;
  const std::size_t n = values.size();
  if constexpr (std::is_integral_v<T>)
    want.exact.resize(n);
  else {
    want.value.resize(n);
    want.scale.resize(n);
  }
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    std::uint32_t wrapped = 0;
    double sum = 0.0;
    double magnitude = 0.0;
    for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      if constexpr (std::is_integral_v<T>) {
        wrapped += static_cast<std::uint32_t>(values[i]);
        want.exact[i] = static_cast<T>(wrapped);
      } else {
        sum += static_cast<double>(values[i]);
        magnitude += std::fabs(static_cast<double>(values[i]));
        want.value[i] = sum;
        want.scale[i] = magnitude;
      }
    }
  }
  return want;
}

/// @p got against @p want: exactly for int32, else within sum_tolerance<T>() x scale.
template <class T>
Check check_against(const std::vector<T>& got, const Expected<T>& want) {
  if constexpr (std::is_integral_v<T>)
    return compare_exact(got, want.exact);
  else
    return compare_within(got, want.value, want.scale, sum_tolerance<T>());
}

}  // namespace stepwise::segmented
