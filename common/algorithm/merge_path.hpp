/// @file merge_path.hpp
/// Merge Path (Odeh, Green et al.; Baxter's moderngpu): the search that splits a merge of two
/// sorted sequences into pieces of equal size, and the serial merge each piece then runs.
/// Host and device code alike (STEPWISE_HD): the kernels, the CPU tests and `--analyze` call
/// the very same functions.
///
/// Draw A along the top of a grid and B down its side. Merging walks from the top-left corner
/// to the bottom-right one, one step right for every output taken from A and one step down for
/// every output taken from B. The outputs 0 .. d-1 are the steps before the path crosses the
/// cross diagonal i + j = d, so "where does output d come from" is "where does the path cross
/// diagonal d": a binary search along that diagonal, O(log min(|A|, |B|)) comparisons, with no
/// need to know anything about the other diagonals. Searching the diagonals d = 0, NV, 2NV, ...
/// splits the merge into tiles of exactly NV outputs each; inside a tile, searching
/// d = 0, VT, 2VT, ... gives every thread exactly VT outputs.
///
/// Ties: with Bounds::lower (a merge, a lower-bound search) an A element goes before a B element
/// equal to it, as std::merge does, so the merge is stable; with Bounds::upper the B element
/// goes first (an upper-bound search, the load-balancing search).
#pragma once

#include <type_traits>

#include "algorithm/hd.hpp"

namespace stepwise {

/// Which input wins a tie: Bounds::lower takes A first (A's element is placed at the lower
/// bound of its key among B's), Bounds::upper takes B first.
enum class Bounds { lower, upper };

/// `a < b`, for keys of any two types that compare.
struct Less {
  template <class X, class Y>
  STEPWISE_HD constexpr bool operator()(const X& a, const Y& b) const {
    return a < b;
  }
};

/// True when the merge takes @p a_key (from A) before @p b_key (from B): for Bounds::lower
/// unless b < a (ties take A), for Bounds::upper only if a < b (ties take B).
template <Bounds bounds, class X, class Y, class Comp>
STEPWISE_HD constexpr bool merge_takes_a(const X& a_key, const Y& b_key, Comp comp) {
  return bounds == Bounds::upper ? comp(a_key, b_key) : !comp(b_key, a_key);
}

/// The Merge Path search: how many of the first @p diagonal outputs of the merge of
/// @p a[0, a_count) and @p b[0, b_count) come from A (the rest, diagonal minus that, come from
/// B). A binary search along the cross diagonal: at most ceil(log2(min(a_count, b_count) + 1))
/// steps, each reading one key of A and one of B.
/// @param a the first input, sorted by @p comp
/// @param a_count its length
/// @param b the second input, sorted by @p comp
/// @param b_count its length
/// @param diagonal in [0, a_count + b_count]
/// @param comp the strict order of the keys, `comp(x, y)` when x goes before y
template <Bounds bounds = Bounds::lower, class AIt, class BIt, class Index, class Comp>
STEPWISE_HD Index merge_path(AIt a, Index a_count, BIt b, Index b_count, Index diagonal, Comp comp) {
  Index begin = diagonal > b_count ? diagonal - b_count : Index(0);
  Index end = diagonal < a_count ? diagonal : a_count;
  while (begin < end) {
    const Index mid = begin + (end - begin) / 2;
    if (merge_takes_a<bounds>(a[mid], b[diagonal - 1 - mid], comp))
      begin = mid + 1;
    else
      end = mid;
  }
  return begin;
}

/// merge_path's answer found bit by bit (binary lifting): starting from the diagonal's first
/// candidate, it tries the bits of the answer's offset from the highest down, keeping each bit
/// whose probe still takes A. The same answer in the same number of steps, but its probes sit
/// at fixed power-of-two strides from that first candidate, so the searches of neighbouring
/// diagonals (the partition kernel's, one per tile) can read the same A keys in their first
/// steps, where merge_path's midpoints differ for every diagonal. Chapter 03 measures how much
/// they share: little (its partition kernel's L2 hit rate is 21.2 % by bits, 19.0 % by midpoints).
template <Bounds bounds = Bounds::lower, class AIt, class BIt, class Index, class Comp>
STEPWISE_HD Index merge_path_by_bits(AIt a, Index a_count, BIt b, Index b_count, Index diagonal, Comp comp) {
  const Index begin = diagonal > b_count ? diagonal - b_count : Index(0);
  const Index end = diagonal < a_count ? diagonal : a_count;
  if (end <= begin) return begin;
  Index bit = 1;
  while (bit <= (end - begin) / 2) bit *= 2;  // the highest power of two <= end - begin
  Index found = begin;
  for (; bit > 0; bit /= 2)
    if (found + bit <= end && merge_takes_a<bounds>(a[found + bit - 1], b[diagonal - found - bit], comp)) found += bit;
  return found;
}

/// The range a Merge Path answer is still known to lie in, [begin, end] (both ends included),
/// while a search narrows it.
template <class Index>
struct MergePathWindow {
  Index begin = 0;
  Index end = 0;
};

/// The window of merge_path's answer on @p diagonal before any probe: every place the path can
/// cross it inside the grid.
template <class Index>
STEPWISE_HD constexpr MergePathWindow<Index> merge_path_window(Index a_count, Index b_count, Index diagonal) {
  return {diagonal > b_count ? diagonal - b_count : Index(0), diagonal < a_count ? diagonal : a_count};
}

/// One step of merge_path's search made by @p probes probes at once (a warp's k-ary search:
/// device/warp_merge_path.cuh). The window is cut into @p probes pieces of kary_stride() places;
/// probe k (0-based) reads A at kary_probe(window, probes, k), the last place of piece k, and
/// those before the answer take A. A probe past the window's last A place reads nothing and
/// counts as not taking A.
template <class Index>
STEPWISE_HD constexpr Index kary_stride(MergePathWindow<Index> window, int probes) {
  return (window.end - window.begin + probes - 1) / probes;
}

/// Where probe @p k of one kary_narrow() step reads A; at or past @p window.end it reads nothing.
template <class Index>
STEPWISE_HD constexpr Index kary_probe(MergePathWindow<Index> window, int probes, int k) {
  return window.begin + (Index(k) + 1) * kary_stride(window, probes) - 1;
}

/// The window after one step whose probes @p taking_a (a count) took A. Probes are monotone
/// along the diagonal (the first ones take A, the rest do not), so the answer lies in piece
/// taking_a: at least its first place, at most its last probe. Each step leaves a window of
/// fewer than kary_stride() places; one of at most @p probes places ends the search (begin ==
/// end), so a window of L places needs about log_probes(L) steps (merge_path needs log2(L)).
template <class Index>
STEPWISE_HD constexpr MergePathWindow<Index> kary_narrow(MergePathWindow<Index> window, int probes, int taking_a) {
  const Index stride = kary_stride(window, probes);
  const Index begin = window.begin + Index(taking_a) * stride;
  const Index last_probe = begin + stride - 1;
  return {begin, last_probe < window.end ? last_probe : window.end};
}

/// The most steps merge_path takes on @p diagonal (what `--analyze` counts): the iterations of
/// a binary search over the diagonal's length inside the grid.
template <class Index>
STEPWISE_HD constexpr int merge_path_max_steps(Index a_count, Index b_count, Index diagonal) {
  Index begin = diagonal > b_count ? diagonal - b_count : Index(0);
  Index end = diagonal < a_count ? diagonal : a_count;
  int steps = 0;
  for (Index width = end - begin; width > 0; width /= 2) ++steps;
  return steps;
}

/// Two half-open ranges, of A and of B, that one tile or one thread merges.
template <class Index>
struct MergeRange {
  Index a_begin = 0;
  Index a_end = 0;
  Index b_begin = 0;
  Index b_end = 0;
  STEPWISE_HD constexpr Index a_count() const { return a_end - a_begin; }
  STEPWISE_HD constexpr Index b_count() const { return b_end - b_begin; }
  STEPWISE_HD constexpr Index count() const { return a_count() + b_count(); }
};

/// The ranges of tile @p tile of a merge cut every @p spacing outputs, from the Merge Path of
/// its first diagonal (@p path_begin, A elements before it) and of the next tile's
/// (@p path_end): A[path_begin, path_end) and B[diagonal - path_begin, next diagonal - path_end).
template <class Index>
STEPWISE_HD constexpr MergeRange<Index> tile_merge_range(Index a_count, Index b_count, Index tile, Index spacing,
                                                         Index path_begin, Index path_end) {
  const Index first = tile * spacing;
  const Index last = first + spacing < a_count + b_count ? first + spacing : a_count + b_count;
  return {path_begin, path_end, first - path_begin, last - path_end};
}

/// The serial merge one thread runs after its Merge Path search (Baxter's "serial merge"): up
/// to VT steps from a[a_begin, a_end) and b[b_begin, b_end), each taking the smaller front key
/// (ties as @p bounds says). Step i calls `emit(i, from_a, a_index, b_index, key)` with the two
/// cursors before the step and the key it took; a step with both ranges used up emits nothing.
/// The loop has a fixed trip count (VT, unrolled), so the caller's `x[i] = key` in @p emit keeps
/// x in registers. Reads only inside the two ranges.
template <int VT, Bounds bounds = Bounds::lower, class AIt, class BIt, class Index, class Comp, class Emit>
STEPWISE_HD void serial_merge(AIt a, Index a_begin, Index a_end, BIt b, Index b_begin, Index b_end, Comp comp,
                              Emit&& emit) {
  static_assert(VT >= 1, "a thread merges at least one output");
  using AKey = std::decay_t<decltype(a[a_begin])>;
  using BKey = std::decay_t<decltype(b[b_begin])>;
  using Key = std::common_type_t<AKey, BKey>;
  AKey a_key = a_begin < a_end ? a[a_begin] : AKey();
  BKey b_key = b_begin < b_end ? b[b_begin] : BKey();
  STEPWISE_UNROLL
  for (int i = 0; i < VT; ++i) {
    const bool a_left = a_begin < a_end;
    const bool b_left = b_begin < b_end;
    if (!a_left && !b_left) return;
    const bool from_a = a_left && (!b_left || merge_takes_a<bounds>(a_key, b_key, comp));
    emit(i, from_a, a_begin, b_begin, from_a ? Key(a_key) : Key(b_key));
    if (from_a) {
      if (++a_begin < a_end) a_key = a[a_begin];
    } else {
      if (++b_begin < b_end) b_key = b[b_begin];
    }
  }
}

/// The sorted-search bound of @p key in data[0, count), by binary search: with Bounds::lower
/// the number of elements less than @p key (std::lower_bound's index), with Bounds::upper the
/// number not greater (std::upper_bound's). ceil(log2(count + 1)) steps.
template <Bounds bounds, class It, class Index, class Key, class Comp>
STEPWISE_HD Index search_bound(It data, Index count, const Key& key, Comp comp) {
  Index begin = 0;
  Index end = count;
  while (begin < end) {
    const Index mid = begin + (end - begin) / 2;
    const bool right = bounds == Bounds::upper ? !comp(key, data[mid]) : comp(data[mid], key);
    if (right)
      begin = mid + 1;
    else
      end = mid;
  }
  return begin;
}

/// The sequence base, base + 1, base + 2, ...: an iterator whose element i is computed, not
/// loaded (the load-balancing search merges the item indices 0 .. n-1 without storing them).
template <class T>
struct CountingIterator {
  T base = 0;
  template <class Index>
  STEPWISE_HD constexpr T operator[](Index i) const {
    return base + static_cast<T>(i);
  }
};

}  // namespace stepwise
