/// @file scan_reference.hpp
/// The chapter's inputs, its CPU references, and the check of a stage's output against
/// them: shared by main and the tests.
///
/// int32 (WrappingAdd) and the affine maps (ComposeAffine) are exact: every association
/// gives the same bits, so the output must equal sequential_scan's. float32 is compared
/// with a scan in double, within a bound on the rounding error.
///
/// Every float add rounds with relative error at most u = 2^-24. Each output of any stage
/// is a tree of float adds over x_0 .. x_i; when every x_j passes through at most d adds on
/// its way to output i, |got_i - exact_i| <= gamma_d * sum_{j<=i} |x_j| with
/// gamma_d = d*u / (1 - d*u) (Higham, "Accuracy and Stability of Numerical Algorithms",
/// section 4.2), however the adds are associated. The deepest paths, for n < 2^40:
/// - stage 1: 8 ladder steps at each of at most 5 levels of 256, and one add-back per
///   level below the top: <= 44;
/// - stages 2 and 3 (the same tree): 9 adds to each level's block total, at most 17
///   through the top level's tree (18 for an inclusive element), 5 levels of 512 and the
///   add-backs: <= 57;
/// - stages 4-6 (NT = 128, VT <= 8): 7 in the thread's reduce, 9 in the block scan, one add
///   per tile in the upsweep's and the downsweep's running totals (together at most one per
///   tile before element i: <= i / 896), 41 in the spine (its block scan, then one carry add
///   per round of 128 totals, at most 32 rounds), 1 for the seed and 8 in the thread's
///   rescan: <= 67 + i / 896;
/// - stage 7 (NT <= 256 with VT <= 32): 31 in the thread's reduce, 13 in the block scan (5
///   shuffle steps, 7 warp totals, 1), 1 for the tile's prefix and 32 in the thread's
///   rescan: 77 within a tile (NT = 512 with VT <= 23: 22 + 21 + 1 + 23 = 67). A tile
///   passes its predecessor's inclusive prefix on through at most 7 adds (5 in the
///   look-back's shuffle reduction, 1 folding the window, 1 for its own inclusive prefix),
///   and tiles hold at least 896 items: <= 77 + 7 * (i / 896), which is <= 77 + i / 128;
/// - CUB: the same look-back; its policies for 4-byte sums (sm_80 to sm_100) use at most
///   24 items per thread, 16 warps per block and tiles of at least 1536 items: <= 70 + i / 219.
/// So d(i) = 80 + i / 128 covers every row, and element i passes when
///   |got_i - want_i| <= 2u * d(i) * sum_{j<=i} |x_j|.
/// The factor 2 covers 1 / (1 - d*u) while d(i) * u <= 1/2, that is for i up to about
/// 2^30. Beyond, the bound exceeds sum_{j<=i} |x_j| itself: the check still catches NaN
/// (the poison of unwritten outputs) and gross errors, but no longer bounds the rounding.
/// The double reference's own error is 2^29 times smaller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "host/verify.hpp"
#include "scan_ops.hpp"

namespace stepwise::scan {

/// 2u, u = 2^-24 the float32 unit roundoff.
constexpr double kFloatTolerance = 2.0 / (1 << 24);

/// d(i) = 80 + i / 128: the most float adds any row chains into element i.
double float_chain_depth(std::size_t i);

/// The exclusive or inclusive scan of @p input in double precision.
std::vector<double> float_reference(const std::vector<float>& input, ScanKind kind);

/// Per element, d(i) * sum_{j<=i} |x_j|: with kFloatTolerance, the bound on element i's error.
std::vector<double> float_error_scale(const std::vector<float>& input);

/// @p n input values for @p Op, reproducible from @p seed: the full int32 range (prefixes
/// wrap constantly), floats in [-1, 1) (mixed signs: prefixes wander, cancellation happens),
/// or affine maps with odd multipliers (units mod 2^32: no product collapses to 0, so every
/// prefix depends on the order of all the maps before it).
template <class Op>
std::vector<typename Op::value_type> scan_input(std::size_t n, std::uint64_t seed);

/// The reference of one scan and the check of a stage's output against it: exact for
/// WrappingAdd and ComposeAffine, within the float bound above for FloatAdd.
template <class Op>
class ScanReference {
 public:
  using T = typename Op::value_type;

  /// The @p kind scan of @p input, and for float32 the error bound of every element.
  ScanReference(const std::vector<T>& input, ScanKind kind);
  /// Scans @p input again, the bound aside: what the table's `cpu` row times.
  void rescan(const std::vector<T>& input);
  /// Compares @p got, a stage's output, with the reference.
  Check check(const std::vector<T>& got) const;

 private:
  using Value = std::conditional_t<std::is_same_v<T, float>, double, T>;
  ScanKind kind_;
  std::vector<Value> want_;
  std::vector<double> scale_;  // float32 only
};

}  // namespace stepwise::scan
