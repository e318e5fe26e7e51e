/// @file verify.hpp
/// Comparing a stage's output with the CPU reference. Integers must match exactly;
/// floating point must lie within a stated tolerance of a double-precision reference. The
/// comparisons run on every host core, so that the checks before and after timing stay short at
/// 2^30 elements and more.
#pragma once

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include "host/parallel.hpp"

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

/// The mismatches of a comparison: how many, and the index of the first.
struct Mismatches {
  std::size_t count = 0;
  std::size_t first = 0;
  void add(std::size_t index) {
    if (count++ == 0) first = index;
  }
};

/// The indices i of [0, @p n) where @p differs(i) is true, counted on every host core
/// (for_each_range over chunks of kHostChunk): each chunk counts its own and notes its first, and
/// the first chunk with any holds the first index. @p differs must be safe to call concurrently.
template <class Differs>
Mismatches count_mismatches(std::size_t n, Differs differs) {
  std::vector<Mismatches> chunks((n + kHostChunk - 1) / kHostChunk);
  for_each_range(n, kHostChunk, [&](std::size_t first, std::size_t last) {
    Mismatches& chunk = chunks[first / kHostChunk];
    for (std::size_t i = first; i < last; ++i)
      if (differs(i)) chunk.add(i);
  });
  Mismatches total;
  for (const Mismatches& chunk : chunks) {
    if (chunk.count != 0 && total.count == 0) total.first = chunk.first;
    total.count += chunk.count;
  }
  return total;
}

/// Exact comparison (integers, or anything with operator==). Sizes must agree.
template <class T>
Check compare_exact(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size())
    return {false, "size " + std::to_string(got.size()) + ", want " + std::to_string(want.size())};
  const Mismatches wrong = count_mismatches(got.size(), [&](std::size_t i) { return !(got[i] == want[i]); });
  if (wrong.count == 0) return {};
  return {false, detail::describe_mismatch(wrong.first, wrong.count, got.size(), got[wrong.first], want[wrong.first])};
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
  const Mismatches wrong = count_mismatches(got.size(), [&](std::size_t i) {
    const double error = std::fabs(static_cast<double>(got[i]) - want[i]);
    return !(error <= tolerance * scale[i]);  // written so that NaN fails
  });
  if (wrong.count == 0) return {};
  const std::size_t first = wrong.first;
  return {false,
          detail::describe_mismatch(first, wrong.count, got.size(), static_cast<double>(got[first]), want[first]) +
              " (tolerance " + std::to_string(tolerance) + " x " + std::to_string(scale[first]) + ")"};
}

}  // namespace stepwise
