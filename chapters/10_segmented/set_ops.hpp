/// @file set_ops.hpp
/// Set operations on sorted multisets (std::set_intersection, set_union, set_difference,
/// set_symmetric_difference), written once for the host and the device (STEPWISE_HD): the
/// kernels, the CPU tests and `--analyze` call the very same functions.
///
/// Multiset semantics, exactly std::set_*'s: a key held cA times by A and cB times by B pairs
/// A's r-th copy with B's r-th copy (r < min(cA, cB)); the copies past the pairs are the extras
/// of the side that has more. Then
/// - intersection keeps the paired copies of A (min(cA, cB) copies, taken from A);
/// - union keeps all of A and B's extras (max(cA, cB) copies: A's first, then B's extras);
/// - difference keeps A's extras (max(cA - cB, 0) copies);
/// - symmetric difference keeps the extras of both (|cA - cB| copies).
/// So whether an element is kept depends only on its rank r among the equal keys of its own
/// input and on the count of its key in the other input: keeps_a() and keeps_b().
///
/// Two ways to compute it in parallel:
/// - **per element** (stage 1): each element finds its rank and the other side's count by
///   binary search, decides, and a scan of the decisions places the kept ones (output_place_a/b);
/// - **balanced path** (stages 2 and 3, Baxter's "start with merge and hack it up"): Merge Path's
///   partitions, nudged so that no cut separates A's r-th copy of a key from B's r-th copy
///   (balanced_cut()), then each thread runs the serial loop of std::set_* on its piece
///   (serial_set_op()): a piece holds whole pairs, so the loop decides every element correctly.
#pragma once

#include <cstdint>

#include "algorithm/hd.hpp"
#include "algorithm/merge_path.hpp"

namespace stepwise::segmented {

/// Which set operation, named as std::set_* names them.
enum class SetOp { intersection, union_, difference, symmetric_difference };

/// True when @p op keeps A's copy of rank @p rank (among A's copies of its key) when B holds
/// @p other_count copies of that key.
template <class Index>
STEPWISE_HD constexpr bool keeps_a(SetOp op, Index rank, Index other_count) {
  return op == SetOp::union_ ? true : op == SetOp::intersection ? rank < other_count : rank >= other_count;
}

/// True when @p op keeps B's copy of rank @p rank when A holds @p other_count copies of its key:
/// union and symmetric difference keep B's extras; intersection and difference keep nothing of B.
template <class Index>
STEPWISE_HD constexpr bool keeps_b(SetOp op, Index rank, Index other_count) {
  return (op == SetOp::union_ || op == SetOp::symmetric_difference) && rank >= other_count;
}

/// True when @p op ever keeps an element of B (the per-element stage skips B otherwise).
STEPWISE_HD constexpr bool op_reads_b_side(SetOp op) {
  return op == SetOp::union_ || op == SetOp::symmetric_difference;
}

/// The per-element decision for A's element @p i (stage 1): its rank among A's copies of its key
/// (i minus the key's lower bound in A) against the key's count in B (upper minus lower bound):
/// three binary searches.
template <class It, class Index>
STEPWISE_HD bool element_kept_a(SetOp op, It a, Index a_count, It b, Index b_count, Index i) {
  const auto key = a[i];
  const Index rank = i - search_bound<Bounds::lower>(a, a_count, key, Less{});
  const Index count =
      search_bound<Bounds::upper>(b, b_count, key, Less{}) - search_bound<Bounds::lower>(b, b_count, key, Less{});
  return keeps_a(op, rank, count);
}

/// The same decision for B's element @p j, against the key's count in A.
template <class It, class Index>
STEPWISE_HD bool element_kept_b(SetOp op, It a, Index a_count, It b, Index b_count, Index j) {
  const auto key = b[j];
  const Index rank = j - search_bound<Bounds::lower>(b, b_count, key, Less{});
  const Index count =
      search_bound<Bounds::upper>(a, a_count, key, Less{}) - search_bound<Bounds::lower>(a, a_count, key, Less{});
  return keeps_b(op, rank, count);
}

/// Where kept A element @p i goes in the output, given the exclusive scans of the kept flags:
/// @p kept_a_before (kept A elements before i) plus the kept B elements whose keys are smaller
/// than A[i]'s (@p kept_b_scan at A[i]'s lower bound in B, j_lower): on equal keys A's copies
/// come first, as std::set_union writes them.
template <class Index>
STEPWISE_HD constexpr Index output_place_a(Index kept_a_before, Index kept_b_before_lower) {
  return kept_a_before + kept_b_before_lower;
}

/// Where kept B element @p j goes: the kept B elements before it plus the kept A elements whose
/// keys are not greater (the kept-A scan at B[j]'s upper bound in A).
template <class Index>
STEPWISE_HD constexpr Index output_place_b(Index kept_b_before, Index kept_a_before_upper) {
  return kept_b_before + kept_a_before_upper;
}

/// A cut of the two inputs: the elements A[0, a) and B[0, b) lie before it.
template <class Index>
struct Cut {
  Index a = 0;
  Index b = 0;
};

/// The balanced cut near output diagonal @p diagonal (Baxter's Balanced Path): Merge Path's cut
/// (ties take A first, so a key's A copies all come before its B copies), then, for the key x =
/// B[j] at the cut, the x copies already before it (aRun from A, bRun from B) are redealt in the
/// balanced order of x's copies, A0 B0 A1 B1 ... then the extras of the longer side. Where that
/// would leave A's r-th copy before the cut and B's r-th after, the cut takes B's copy too: the
/// cut holds diagonal or diagonal + 1 elements. Cuts at increasing diagonals never go back, and no
/// pair of copies straddles one, so every piece between two cuts runs std::set_*'s loop alone.
/// Six binary searches at most; host and device.
template <class AIt, class BIt, class Index>
STEPWISE_HD Cut<Index> balanced_cut(AIt a, Index a_count, BIt b, Index b_count, Index diagonal) {
  const Index i = merge_path<Bounds::lower>(a, a_count, b, b_count, diagonal, Less{});
  const Index j = diagonal - i;
  if (j >= b_count) return {i, j};  // all of B before the cut: every pair is whole
  const auto x = b[j];
  const Index a_start = search_bound<Bounds::lower>(a, i, x, Less{});
  const Index b_start = search_bound<Bounds::lower>(b, j, x, Less{});
  const Index x_count = (i - a_start) + (j - b_start);  // copies of x before Merge Path's cut
  if (x_count == 0) return {i, j};
  const Index a_copies = search_bound<Bounds::upper>(a, a_count, x, Less{}) - a_start;
  const Index b_copies = search_bound<Bounds::upper>(b, b_count, x, Less{}) - b_start;
  const Index pairs = a_copies < b_copies ? a_copies : b_copies;
  Index a_take;
  Index b_take;
  if (x_count <= 2 * pairs) {  // inside the pairs: A0 B0 A1 B1 ...
    b_take = x_count / 2;
    a_take = x_count - b_take;
    if (a_take > b_take) ++b_take;   // A's copy would leave its B partner behind: take it too
  } else if (a_copies > b_copies) {  // all pairs, then some of A's extras
    b_take = b_copies;
    a_take = x_count - b_copies;
  } else {  // all pairs, then some of B's extras
    a_take = a_copies;
    b_take = x_count - a_copies;
  }
  return {a_start + a_take, b_start + b_take};
}

/// The serial loop of std::set_* on the piece a[a_begin, a_end), b[b_begin, b_end) (one thread's,
/// between two balanced cuts): walks both like a merge, matching equal keys pairwise. Calls
/// `emit(key)` for every element the op keeps, in output order, and returns how many it kept.
/// Reads only inside the two ranges. @p kMax bounds the steps (the most elements a piece holds).
template <int kMax, class AIt, class BIt, class Index, class Emit>
STEPWISE_HD Index serial_set_op(SetOp op, AIt a, Index a_begin, Index a_end, BIt b, Index b_begin, Index b_end,
                                Emit&& emit) {
  Index kept = 0;
  for (int step = 0; step < kMax; ++step) {
    const bool a_left = a_begin < a_end;
    const bool b_left = b_begin < b_end;
    if (!a_left && !b_left) break;
    if (a_left && (!b_left || a[a_begin] < b[b_begin])) {  // A's key has no partner in B
      if (op != SetOp::intersection) {
        emit(a[a_begin]);
        ++kept;
      }
      ++a_begin;
    } else if (!a_left || b[b_begin] < a[a_begin]) {  // B's key has no partner in A
      if (op_reads_b_side(op)) {
        emit(b[b_begin]);
        ++kept;
      }
      ++b_begin;
    } else {  // a pair: one step consumes both copies
      if (op == SetOp::intersection || op == SetOp::union_) {
        emit(a[a_begin]);
        ++kept;
      }
      ++a_begin;
      ++b_begin;
    }
  }
  return kept;
}

}  // namespace stepwise::segmented
