/// @file verify.hpp
/// Comparing a stage's output with the CPU reference. Integers must match exactly;
/// floating point must lie within a stated tolerance of a double-precision reference.
#pragma once

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace stepwise {

/// The outcome of one comparison: passed, or the first mismatch and how many there were.
struct Check {
  bool passed = true;
  std::string detail;  ///< empty when passed
};

namespace detail {
template <class T>
std::string describe_mismatch(std::size_t first, std::size_t count, std::size_t total, const T& got, const T& want) {
  std::ostringstream text;
  text.precision(9);
  text << count << " of " << total << " elements differ; first at index " << first << ": got " << got << ", want "
       << want;
  return text.str();
}
}  // namespace detail

/// Exact comparison (integers, or anything with operator==). Sizes must agree.
template <class T>
Check compare_exact(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size())
    return {false, "size " + std::to_string(got.size()) + ", want " + std::to_string(want.size())};
  std::size_t mismatches = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!(got[i] == want[i])) {
      if (mismatches++ == 0) first = i;
    }
  }
  if (mismatches == 0) return {};
  return {false, detail::describe_mismatch(first, mismatches, got.size(), got[first], want[first])};
}

/// Floating-point comparison against a double-precision reference:
/// element i passes when |got[i] - want[i]| <= tolerance * scale[i]. The scale is what
/// the rounding error is proportional to (for a sum, the sum of absolute values of its
/// terms; for an element-wise result, |want[i]|). NaN never passes.
template <class T>
Check compare_within(const std::vector<T>& got, const std::vector<double>& want, const std::vector<double>& scale,
                     double tolerance) {
  if (got.size() != want.size() || scale.size() != want.size())
    return {false, "size " + std::to_string(got.size()) + ", want " + std::to_string(want.size())};
  std::size_t mismatches = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double error = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (!(error <= tolerance * scale[i])) {  // written so that NaN fails
      if (mismatches++ == 0) first = i;
    }
  }
  if (mismatches == 0) return {};
  return {false,
          detail::describe_mismatch(first, mismatches, got.size(), static_cast<double>(got[first]), want[first]) +
              " (tolerance " + std::to_string(tolerance) + " x " + std::to_string(scale[first]) + ")"};
}

}  // namespace stepwise
