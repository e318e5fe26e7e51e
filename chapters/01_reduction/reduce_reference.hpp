/// @file reduce_reference.hpp
/// The input of chapter 01, its CPU reference and the tolerance of its float comparison.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "host/verify.hpp"

namespace stepwise::reduction {

/// The chapter's input of @p n values from @p seed: for std::uint32_t, int32 values drawn
/// from the whole int32 range (half of them negative) as their two's-complement bits; for
/// float, values drawn from [-1, 2).
template <class T>
std::vector<T> random_input(std::size_t n, std::uint64_t seed);

/// The int32 data as the GPU sums it: each value's two's-complement bits as uint32.
std::vector<std::uint32_t> as_wrapping(const std::vector<std::int32_t>& values);

/// The sum of @p values mod 2^32 (two's-complement wrapping: the int32 sum's low 32 bits).
std::uint32_t wrapping_sum(const std::vector<std::uint32_t>& values);

/// A float sum's double-precision reference and the scale of its rounding error.
struct FloatSum {
  double sum = 0.0;      ///< sum of the values, in double
  double abs_sum = 0.0;  ///< sum of their absolute values
};

/// The double-precision sum of @p values and of their absolute values.
FloatSum float_sum(const std::vector<float>& values);

/// What a sum of T is checked against: the wrapping sum for std::uint32_t, the double sums for float.
template <class T>
using Reference = std::conditional_t<std::is_same_v<T, float>, FloatSum, std::uint32_t>;

/// The reference of @p values: wrapping_sum or float_sum.
template <class T>
Reference<T> reference_sum(const std::vector<T>& values);

/// Checks the one-element output @p got against @p want: bit-exact for std::uint32_t; for
/// float, |got - sum| <= @p tolerance x sum |x_i| (tolerance: float_sum_tolerance).
template <class T>
Check check_sum(const std::vector<T>& got, const Reference<T>& want, double tolerance);

/// An upper bound d on the number of float additions any element goes through on its way
/// to the result, for every stage of the chapter on a GPU of @p sm_count SMs:
///  - first pass, serial adds per thread: at most ceil(n / T) + 16, T = sm_count x
///    kMinThreadsPerSm (grid-sized stages run at least T threads once n fills them, as
///    require_resident_threads enforces for every shape, and at most 16 elements per
///    thread below that; stages 1 to 7 add at most 2);
///  - in-block trees: at most 11 levels per pass (log2(1024) + the first add), and the
///    passes of stages 1 to 7 together at most 2 (ceil(log2 n) + 11) levels;
///  - second pass or last block: at most ceil(sm_count / 2) + 1 serial adds per thread
///    (at most sm_count x kMaxThreadsPerSm / 64 partials over at least 64 threads).
std::size_t summation_depth_bound(std::size_t n, int sm_count);

/// The tolerance, relative to sum |x_i|, of a float32 sum of @p n values on @p sm_count
/// SMs: d x eps32 with d = summation_depth_bound. Any summation tree of depth d has
/// |computed - exact| <= gamma_d sum |x_i|, gamma_d = d u / (1 - d u), u = 2^-24
/// (Higham, Accuracy and Stability of Numerical Algorithms, 4.2); d x eps32 = 2 d u is
/// that bound with a safety factor of about 2.
double float_sum_tolerance(std::size_t n, int sm_count);

}  // namespace stepwise::reduction
