/// @file sorted_search.hpp
/// Vectorized sorted search (Baxter): the bound of every needle of a sorted array A in a sorted
/// haystack B. One binary search per needle costs O(|A| log |B|); when the needles are sorted
/// too, each found bound is where the next search may start, and the whole job is a merge of
/// A with B that records the haystack cursor every time it takes a needle: O(|A| + |B|).
/// Host and device code alike (STEPWISE_HD); the GPU version splits that merge with Merge Path
/// (merge_path.hpp), exactly as a merge is split.
#pragma once

#include <type_traits>

#include "algorithm/hd.hpp"
#include "algorithm/merge_path.hpp"

namespace stepwise {

/// The talk's sequential sorted search: walks the merge of @p needles with @p haystack and, each
/// time it takes a needle, writes the haystack cursor: out[i] is the number of haystack keys
/// less than needles[i] (Bounds::lower: std::lower_bound's index) or not greater than it
/// (Bounds::upper: std::upper_bound's). Needles and haystack must be sorted by @p comp.
template <Bounds bounds, class NeedleIt, class HaystackIt, class Index, class Out, class Comp>
STEPWISE_HD void sorted_search(NeedleIt needles, Index needle_count, HaystackIt haystack, Index haystack_count, Out out,
                               Comp comp) {
  Index a = 0;
  Index b = 0;
  while (a < needle_count) {
    if (b < haystack_count && !merge_takes_a<bounds>(needles[a], haystack[b], comp))
      ++b;  // the haystack key goes first: it is below the needle (or equal, for an upper bound)
    else
      out[a++] = static_cast<std::decay_t<decltype(out[0])>>(b);
  }
}

/// One thread's piece of the sorted search: VT steps of the merge of needles[a_begin, a_end)
/// with haystack[b_begin, b_end), starting at the thread's Merge Path cross point; every needle
/// step writes `b_offset + haystack cursor` to results[needle index]. A needle's bound is the
/// haystack cursor when the merge takes it, so VT steps settle every needle they take.
template <int VT, Bounds bounds, class NeedleIt, class HaystackIt, class Index, class Result, class Comp>
STEPWISE_HD void serial_sorted_search(NeedleIt needles, Index a_begin, Index a_end, HaystackIt haystack, Index b_begin,
                                      Index b_end, Result* results, Result b_offset, Comp comp) {
  serial_merge<VT, bounds>(needles, a_begin, a_end, haystack, b_begin, b_end, comp,
                           [&](int, bool from_a, Index a_index, Index b_index, const auto&) {
                             if (from_a) results[a_index] = b_offset + static_cast<Result>(b_index);
                           });
}

}  // namespace stepwise
