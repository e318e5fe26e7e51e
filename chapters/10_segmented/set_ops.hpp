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
#include <type_traits>

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

/// How balanced_cut() finds the ends of the run of the key at Merge Path's cut.
enum class CutSearch {
  /// Binary searches over all of A and B: four of them, each as long as the inputs' logarithm.
  full,
  /// Galloping searches outward from Merge Path's cut (probes 1, 3, 7, ... elements away, then a
  /// binary search between the last two probes): 2 log2(r) + 1 probes for a run of r copies, so
  /// one or two reads where the key at the cut has no other copy near it. Each search one loop.
  near,
  /// The same probes, each search's gallop and binary search as two loops.
  near_two_loops,
};

/// The lower bound of @p key in the sorted @p data[0, @p end), found by galloping back from
/// @p end: probes end - 1, end - 3, end - 7, ... until one is below @p key, then a binary search
/// between that probe and the one before. @p kOneLoop runs both phases as one loop, each step a
/// gallop or a halving as the thread's own state says: threads of a warp in different phases then
/// step together, and the warp takes as many steps as its longest search, not as its longest
/// gallop plus its longest halving (the two-loop form, `kOneLoop = false`).
template <bool kOneLoop = true, class It, class Index, class Key>
STEPWISE_HD Index lower_bound_before(It data, Index end, const Key& key) {
  if constexpr (kOneLoop) {
    Index lo = 0;    // data[0, lo) are below key
    Index hi = end;  // data[hi, end) are not
    Index step = 1;
    bool galloping = true;
    while (lo < hi) {
      const Index probe = !galloping ? lo + (hi - lo) / 2 : step <= hi - lo ? hi - step : lo;
      if (data[probe] < key) {
        lo = probe + 1;
        galloping = false;
      } else {
        hi = probe;
        step *= 2;
      }
    }
    return lo;
  } else {
    Index hi = end;  // data[hi, end) are not below key
    for (Index step = 1; step <= hi; step *= 2) {
      const Index probe = hi - step;
      if (data[probe] < key)
        return probe + 1 + search_bound<Bounds::lower>(data + (probe + 1), hi - probe - 1, key, Less{});
      hi = probe;
    }
    return search_bound<Bounds::lower>(data, hi, key, Less{});
  }
}

/// The upper bound of @p key in the sorted @p data[0, @p count), given that @p data[0, @p from)
/// are not above @p key: probes from, from + 1, from + 3, from + 7, ... until one is above
/// @p key, then a binary search between that probe and the one before; @p kOneLoop as for
/// lower_bound_before().
template <bool kOneLoop = true, class It, class Index, class Key>
STEPWISE_HD Index upper_bound_after(It data, Index from, Index count, const Key& key) {
  if constexpr (kOneLoop) {
    Index lo = from;   // data[0, lo) are not above key
    Index hi = count;  // data[hi, count) are
    Index step = 1;
    bool galloping = true;
    while (lo < hi) {
      const Index probe = !galloping ? lo + (hi - lo) / 2 : step <= hi - lo ? lo + step - 1 : hi - 1;
      if (key < data[probe]) {
        hi = probe;
        galloping = false;
      } else {
        lo = probe + 1;
        step *= 2;
      }
    }
    return lo;
  } else {
    Index lo = from;  // data[0, lo) are not above key
    for (Index step = 1; step <= count - lo; step *= 2) {
      const Index probe = lo + step - 1;
      if (key < data[probe]) return lo + search_bound<Bounds::upper>(data + lo, probe - lo, key, Less{});
      lo = probe + 1;
    }
    return lo + search_bound<Bounds::upper>(data + lo, count - lo, key, Less{});
  }
}

/// The balanced cut from Merge Path's cut (@p i, @p j) = (merge_path's answer, diagonal - i), ties
/// taking A first, so a key's A copies all come before its B copies: for the key x = B[j] at the
/// cut, the x copies already before it (aRun from A, bRun from B) are redealt in the balanced
/// order of x's copies, A0 B0 A1 B1 ... then the extras of the longer side. Where that would leave
/// A's r-th copy before the cut and B's r-th after, the cut takes B's copy too: the cut holds
/// i + j or i + j + 1 elements. balanced_cut() is merge_path and then this.
///
/// CutSearch::full counts x's copies in A and in B by four binary searches over the inputs.
/// CutSearch::near (and near_two_loops) gallops back from the cut for the runs' starts and forward in B alone, and
/// no further than the redeal can tell: A's copies before the cut stand for all of A's (when B has
/// a copy before the cut, ties taking A first put every A copy before it; when not, A's copies
/// before the cut are all the redeal places, and A's count matters only against B's, which are
/// then fewer), and B's copies count up to x_count + 1. The same cut either way.
template <CutSearch search = CutSearch::full, class AIt, class BIt, class Index>
STEPWISE_HD Cut<Index> balance_merge_cut(AIt a, Index a_count, BIt b, Index b_count, Index i, Index j) {
  if (j >= b_count) return {i, j};  // all of B before the cut: every pair is whole
  const auto x = b[j];
  constexpr bool kNear = search != CutSearch::full;
  constexpr bool kOneLoop = search == CutSearch::near;
  const Index a_start = kNear ? lower_bound_before<kOneLoop>(a, i, x) : search_bound<Bounds::lower>(a, i, x, Less{});
  const Index b_start = kNear ? lower_bound_before<kOneLoop>(b, j, x) : search_bound<Bounds::lower>(b, j, x, Less{});
  const Index x_count = (i - a_start) + (j - b_start);  // copies of x before Merge Path's cut
  if (x_count == 0) return {i, j};
  // Ties take A first, so A[0, i) and B[0, j] are not above x: the runs end at or after i and j + 1.
  Index a_copies;
  Index b_copies;
  if constexpr (kNear) {
    a_copies = i - a_start;
    const Index b_bound = b_start + x_count + 1 < b_count ? b_start + x_count + 1 : b_count;
    b_copies = upper_bound_after<kOneLoop>(b, j + 1, b_bound, x) - b_start;
  } else {
    a_copies = search_bound<Bounds::upper>(a, a_count, x, Less{}) - a_start;
    b_copies = search_bound<Bounds::upper>(b, b_count, x, Less{}) - b_start;
  }
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

/// The balanced cut near output diagonal @p diagonal (Baxter's Balanced Path): Merge Path's cut,
/// then balance_merge_cut(). Cuts at increasing diagonals never go back, and no pair of copies
/// straddles one, so every piece between two cuts runs std::set_*'s loop alone. Merge Path's
/// search and at most four searches more for the run of the key at the cut; host and device.
template <CutSearch search = CutSearch::full, class AIt, class BIt, class Index>
STEPWISE_HD Cut<Index> balanced_cut(AIt a, Index a_count, BIt b, Index b_count, Index diagonal) {
  const Index i = merge_path<Bounds::lower>(a, a_count, b, b_count, diagonal, Less{});
  return balance_merge_cut<search>(a, a_count, b, b_count, i, diagonal - i);
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

/// The most steps the serial loop takes on a piece between balanced cuts @p spacing diagonals
/// apart: @p spacing. The piece holds spacing - 1 to spacing + 1 elements (a cut holds its
/// diagonal or one more); it holds spacing + 1 only where its end cut took B's r-th copy of a key
/// to keep it with A's r-th, and that A copy lies inside the piece (its start cut splits no pair
/// either), so the piece ends in a pair, which one step consumes.
STEPWISE_HD constexpr int balanced_piece_steps(int spacing) { return spacing; }

/// The serial loop of serial_set_op() as the tuned kernels run it: the op fixed at compile time,
/// exactly @p kSteps steps (no early exit: a step past the piece's end keeps nothing), the front
/// key of each input held in a register and one new key read per input consumed. Step s writes
/// its candidate (A's key on a pair or when A's is the smaller, else B's) to @p keys[s] and sets
/// bit s of the returned mask when the op keeps it; the kept keys in step order are the piece's
/// output. Reads without a bounds check: each range must be followed by one readable key,
/// @p a[@p a_end] and @p b[@p b_end], which the loop reads as its side runs out and never uses
/// (SetTile's shared memory holds one key past the tile's). @p kSteps must be at least the
/// piece's steps: its elements less its pairs, one step consuming both copies of a pair
/// (balanced_piece_steps()).
template <SetOp kOp, int kSteps, class AIt, class BIt, class Index, class Key>
STEPWISE_HD unsigned serial_set_op_masked(AIt a, Index a_begin, Index a_end, BIt b, Index b_begin, Index b_end,
                                          Key (&keys)[kSteps]) {
  static_assert(kSteps >= 1 && kSteps <= 32, "one mask bit per step");
  Key a_key = a[a_begin];
  Key b_key = b[b_begin];
  unsigned mask = 0;
  STEPWISE_UNROLL
  for (int step = 0; step < kSteps; ++step) {
    const bool a_left = a_begin < a_end;
    const bool b_left = b_begin < b_end;
    const bool step_a = a_left && (!b_left || !(b_key < a_key));  // A's key is the smaller, or a pair
    const bool step_b = b_left && (!a_left || !(a_key < b_key));  // B's key is the smaller, or a pair
    bool keep;
    if constexpr (kOp == SetOp::intersection) {
      keep = step_a && step_b;  // a pair
    } else if constexpr (kOp == SetOp::union_) {
      keep = step_a || step_b;  // anything: a pair gives A's copy
    } else if constexpr (kOp == SetOp::difference) {
      keep = step_a && !step_b;  // A's key without a partner
    } else {
      keep = step_a != step_b;  // either key without a partner
    }
    keys[step] = step_a ? a_key : b_key;
    mask |= static_cast<unsigned>(keep) << step;
    if (step_a) a_key = a[++a_begin];
    if (step_b) b_key = b[++b_begin];
  }
  return mask;
}

/// Calls `f(std::integral_constant<SetOp, op>{})`: the op as a compile-time constant, for
/// serial_set_op_masked(); host code (a launcher picks its kernel with it).
template <class F>
decltype(auto) with_set_op(SetOp op, F&& f) {
  switch (op) {
    case SetOp::intersection:
      return f(std::integral_constant<SetOp, SetOp::intersection>{});
    case SetOp::union_:
      return f(std::integral_constant<SetOp, SetOp::union_>{});
    case SetOp::difference:
      return f(std::integral_constant<SetOp, SetOp::difference>{});
    default:
      return f(std::integral_constant<SetOp, SetOp::symmetric_difference>{});
  }
}

}  // namespace stepwise::segmented
