/// @file scan_ops.hpp
/// The scan operators of chapter 02 and the sequential scan every stage is checked against.
///
/// An operator is a struct with a `value_type`, a static `identity()` and a call operator
/// `op(left, right)`, where `left` covers the earlier elements. Every stage takes the
/// operator as a template parameter and never swaps operands, so an associative but
/// non-commutative operator (ComposeAffine) produces the right answer only if every
/// stage combines partial results in sequence order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>

#include "algorithm/hd.hpp"

namespace stepwise::scan {

/// Exclusive: out[i] = x[0] op ... op x[i-1] (identity for i = 0). Inclusive: up to x[i].
enum class ScanKind { exclusive, inclusive };

/// int32 addition with two's-complement wrap-around. The adds happen in uint32, where
/// addition is associative modulo 2^32 and overflow is defined, so every order of
/// evaluation gives the bit-exact result of the sequential reference (no signed-overflow UB).
struct WrappingAdd {
  using value_type = std::int32_t;
  STEPWISE_HD static constexpr value_type identity() { return 0; }
  STEPWISE_HD constexpr value_type operator()(value_type left, value_type right) const {
    return static_cast<value_type>(static_cast<std::uint32_t>(left) + static_cast<std::uint32_t>(right));
  }
};

/// float32 addition: associative only up to rounding, so float results are compared
/// against a double reference within a bound on the rounding error (scan_reference.hpp).
struct FloatAdd {
  using value_type = float;
  STEPWISE_HD static constexpr value_type identity() { return 0.0f; }
  STEPWISE_HD constexpr value_type operator()(value_type left, value_type right) const { return left + right; }
};

/// The affine map x -> a*x + b on uint32, wrapping modulo 2^32.
struct Affine {
  std::uint32_t a;
  std::uint32_t b;
};

STEPWISE_HD constexpr bool operator==(const Affine& left, const Affine& right) {
  return left.a == right.a && left.b == right.b;
}

inline std::ostream& operator<<(std::ostream& out, const Affine& map) {
  return out << "(" << map.a << "x + " << map.b << ")";
}

/// Composition of affine maps, `left` applied first: (right o left)(x) = ra*(la*x + lb) + rb.
/// Associative (composition of functions is) and exact (arithmetic mod 2^32), but not
/// commutative: a stage that combines two partial results in the wrong order fails exactly.
struct ComposeAffine {
  using value_type = Affine;
  STEPWISE_HD static constexpr value_type identity() { return {1u, 0u}; }
  STEPWISE_HD constexpr value_type operator()(value_type left, value_type right) const {
    return {right.a * left.a, right.a * left.b + right.b};
  }
};

/// The sequential scan: one pass, one running value. In-place (in == out) allowed.
template <class Op>
STEPWISE_HD void sequential_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                                 ScanKind kind, Op op = {}) {
  typename Op::value_type running = Op::identity();
  for (std::size_t i = 0; i < n; ++i) {
    const typename Op::value_type next = op(running, in[i]);
    out[i] = kind == ScanKind::exclusive ? running : next;
    running = next;
  }
}

}  // namespace stepwise::scan
