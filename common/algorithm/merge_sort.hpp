/// @file merge_sort.hpp
/// The plan of a tiled merge sort (moderngpu's mergesort): host and device code alike
/// (STEPWISE_HD), so the kernels, the CPU tests and `--analyze` call the very same functions.
///
/// A block sort first leaves sorted runs of `first_run` keys (one tile each). Pass k then merges
/// neighbouring runs of width = first_run * 2^k into runs of 2 * width, until one run is left:
/// merge_sort_passes() passes. Every pass is chapter 03's two-level Merge Path merge applied to
/// all its pairs of runs at once: the outputs are cut into tiles of `spacing` (a divisor of
/// first_run, so that no tile spans two pairs), one Merge Path search per tile boundary inside
/// the pair that holds it (merge_sort_partition(), the partition kernel's body), and each tile
/// merges its A and B ranges (merge_sort_tile_range()) to the same output positions. Ties take
/// A, the run that came first in the input: the sort is stable.
#pragma once

#include "algorithm/hd.hpp"
#include "algorithm/merge_path.hpp"

namespace stepwise {

/// The global merge passes that turn sorted runs of @p first_run keys into one sorted run of
/// @p n: ceil(log2(ceil(n / first_run))), 0 when one run holds all of n.
template <class Index>
STEPWISE_HD constexpr int merge_sort_passes(Index n, Index first_run) {
  int passes = 0;
  for (Index width = first_run; width < n; width *= 2) ++passes;
  return passes;
}

/// The pair of runs that output @p output belongs to in the pass that merges runs of @p width:
/// A = [a_begin, a_end), B = [b_begin, b_end) with b_begin == a_end (B is empty for the last,
/// unpaired run; both are empty at output n when n is a multiple of 2 * width).
template <class Index>
STEPWISE_HD constexpr MergeRange<Index> merge_sort_pair(Index n, Index width, Index output) {
  const Index first = output / (2 * width) * (2 * width);
  const Index middle = first + width < n ? first + width : n;
  const Index last = first + 2 * width < n ? first + 2 * width : n;
  return {first, middle, middle, last};
}

/// Tile boundary @p boundary of the pass that merges runs of @p width, cut every @p spacing
/// outputs (the boundary of output min(boundary * spacing, n)): the global index of the first
/// A key that the outputs from there on take, found by a Merge Path search of the boundary's
/// diagonal inside its pair of runs. The partition kernel's body.
/// @param keys the n keys, sorted in runs of @p width
/// @param n the number of keys
/// @param width the length of the runs this pass merges in pairs (the last run may be shorter)
/// @param spacing the outputs between two tile boundaries (the merge kernel's tile)
/// @param boundary which boundary: 0 is output 0, the last is output n
/// @param search the Merge Path search, called as `search(a, a_count, b, b_count, diagonal)`
///   (merge_path with @p comp in merge_sort_partition(); a warp's search in the partition kernel
///   that gives each boundary a warp)
template <class It, class Index, class Search>
STEPWISE_HD Index merge_sort_partition_with(It keys, Index n, Index width, Index spacing, Index boundary,
                                            Search&& search) {
  const Index output = boundary * spacing < n ? boundary * spacing : n;
  const MergeRange<Index> pair = merge_sort_pair(n, width, output);
  return pair.a_begin +
         search(keys + pair.a_begin, pair.a_count(), keys + pair.b_begin, pair.b_count(), output - pair.a_begin);
}

/// merge_sort_partition_with() by merge_path: one thread's binary search. @p comp is the strict
/// weak order the keys are sorted by (ties take A first).
template <class It, class Index, class Comp>
STEPWISE_HD Index merge_sort_partition(It keys, Index n, Index width, Index spacing, Index boundary, Comp comp) {
  return merge_sort_partition_with(keys, n, width, spacing, boundary,
                                   [comp](It a, Index a_count, It b, Index b_count, Index diagonal) {
                                     return merge_path(a, a_count, b, b_count, diagonal, comp);
                                   });
}

/// The A and B ranges (global indices) that tile @p tile merges in the pass over runs of
/// @p width, from its boundary (@p partition_begin) and the next one (@p partition_end). The
/// tile writes outputs [tile * spacing, min((tile + 1) * spacing, n)), the same positions its
/// inputs occupied. The last tile of a pair ends at the pair's end (the next boundary then
/// belongs to the next pair, and @p partition_end is not read). @p width must be a multiple of
/// @p spacing.
template <class Index>
STEPWISE_HD constexpr MergeRange<Index> merge_sort_tile_range(Index n, Index width, Index spacing, Index tile,
                                                              Index partition_begin, Index partition_end) {
  const Index first = tile * spacing;
  const Index last = first + spacing < n ? first + spacing : n;
  const MergeRange<Index> pair = merge_sort_pair(n, width, first);
  const bool pair_ends = last == pair.b_end;
  return {partition_begin, pair_ends ? pair.a_end : partition_end, pair.b_begin + (first - partition_begin),
          pair_ends ? pair.b_end : pair.b_begin + (last - partition_end)};
}

}  // namespace stepwise
