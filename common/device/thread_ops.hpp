/// @file thread_ops.hpp
/// What one thread does with the VT values it holds in registers: reduce them, scan them.
/// Host and device code alike (STEPWISE_HD), so the CPU tests run exactly what the kernels
/// run, with the non-commutative operator that catches a swapped operand.
///
/// An operator is a struct with a `value_type`, a static `identity()` and a call operator
/// `op(left, right)` in which `left` covers the earlier elements.
#pragma once

#include "algorithm/hd.hpp"

namespace stepwise {

/// Addition as an operator of the kind above, for any T that adds.
template <class T>
struct Plus {
  using value_type = T;
  STEPWISE_HD static constexpr T identity() { return T(0); }
  STEPWISE_HD constexpr T operator()(T left, T right) const { return left + right; }
};

/// The reduction of @p x[0..VT-1] in order: ((x0 op x1) op x2) ...
template <int VT, class Op>
STEPWISE_HD typename Op::value_type thread_reduce(const typename Op::value_type (&x)[VT], Op op) {
  static_assert(VT >= 1, "a thread holds at least one value");
  typename Op::value_type total = x[0];
  STEPWISE_UNROLL
  for (int i = 1; i < VT; ++i) total = op(total, x[i]);
  return total;
}

/// Scans @p x in place, sequentially, seeded with @p prefix (the reduction of everything
/// before x[0]): exclusive leaves x[i] = prefix op x[0] op ... op x[i-1], inclusive up to x[i].
template <int VT, class Op>
STEPWISE_HD void thread_scan(typename Op::value_type (&x)[VT], typename Op::value_type prefix, bool exclusive, Op op) {
  STEPWISE_UNROLL
  for (int i = 0; i < VT; ++i) {
    const typename Op::value_type next = op(prefix, x[i]);
    x[i] = exclusive ? prefix : next;
    prefix = next;
  }
}

}  // namespace stepwise
