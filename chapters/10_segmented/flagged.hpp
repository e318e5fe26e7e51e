/// @file flagged.hpp
/// The operator that turns a segmented scan into a plain one (Schwartz; Blelloch, "Prefix Sums
/// and Their Applications", 1.5): each item carries a flag, set on the first item of its segment,
/// and pairs combine as
///
///   (f1, v1) . (f2, v2) = (f1 | f2, f2 ? v2 : v1 + v2)
///
/// A scan of the pairs by this operator is the scan of every segment, restarted at each flag.
/// It is associative (so a tree, a block scan and a look-back may group it any way), but not
/// commutative: the right operand's flag cuts off the left operand's sum, so the scans keep
/// every left operand before its right one. Host and device code alike (STEPWISE_HD): the CPU
/// tests check both properties on the very operator the kernels run.
#pragma once

#include <cstdint>

#include "algorithm/hd.hpp"

namespace stepwise::segmented {

/// An item of a segmented scan: the head flag and the value (or the sum since the last head).
template <class A>
struct Flagged {
  std::uint32_t flag;  ///< 1: a segment starts here (or within the items this pair sums)
  A value;
};

/// The segmented sum as an operator of the kind common/device/thread_ops.hpp and block.cuh take:
/// value_type, identity (no flag, 0) and the combination above.
template <class A>
struct FlaggedPlus {
  using value_type = Flagged<A>;
  STEPWISE_HD static constexpr value_type identity() { return {0u, A(0)}; }
  STEPWISE_HD constexpr value_type operator()(const value_type& left, const value_type& right) const {
    return {left.flag | right.flag, right.flag != 0 ? right.value : A(left.value + right.value)};
  }
};

}  // namespace stepwise::segmented
