/// @file scan_reference.hpp
/// The float32 reference and its error bound, shared by the chapter and its tests.
///
/// Every float add rounds with relative error at most u = 2^-24, so a prefix computed
/// through a chain of at most d dependent adds lies within gamma_d * sum_{j<=i} |x_j| of
/// the exact value (gamma_d = d*u / (1 - d*u); Higham, "Accuracy and Stability of
/// Numerical Algorithms", section 4.2), however the additions are associated. The longest
/// chain that leads to element i, in any stage here or in CUB: the thread's sequential
/// items (<= 16), the block scan (<= log2(1024) = 10 steps, shuffles or ladder), the
/// recursion or spine levels (<= 38 for the stage 1-2 recursion of three levels of 256
/// and the spine's rounds of NT), and one add per earlier tile in the look-back or the
/// downsweep's carried prefix (tiles of at least 256 items: <= i / 256). So
/// d(i) <= 64 + i / 256, and element i passes when
///   |got_i - want_i| <= 2u * d(i) * sum_{j<=i} |x_j|
/// (the factor 2 covers 1 / (1 - d*u)). The reference itself is a double scan, whose own
/// error is 2^29 times smaller.
#pragma once

#include <cstddef>
#include <vector>

#include "scan_ops.hpp"

namespace stepwise::scan {

/// 2u, u = 2^-24 the float32 unit roundoff.
constexpr double kFloatTolerance = 2.0 / (1 << 24);

/// d(i) = 64 + i / 256: the longest chain of float adds any stage uses for element i.
double float_chain_depth(std::size_t i);

/// The exclusive or inclusive scan of @p input in double precision.
std::vector<double> float_reference(const std::vector<float>& input, ScanKind kind);

/// Per element, d(i) * sum_{j<=i} |x_j|: with kFloatTolerance, the bound on element i's error.
std::vector<double> float_error_scale(const std::vector<float>& input);

}  // namespace stepwise::scan
