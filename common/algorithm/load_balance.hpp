/// @file load_balance.hpp
/// Load-balancing search (Baxter): N objects each generate a number of items (a CSR matrix's rows
/// generate their nonzeros); given the objects' offsets (the exclusive scan of their counts, a
/// CSR row-pointer array without its last entry), find for every item the object it belongs to
/// and its rank inside it (CSR -> COO). An item i belongs to the last object whose offset is
/// <= i: upper_bound(offsets, i) - 1. As a merge, it is the sorted search of the items 0, 1, 2,
/// ... (a counting sequence, never stored) in the offsets, with ties taking the offset first
/// (Bounds::upper), so the whole job is O(items + objects) and splits with Merge Path.
/// Host and device code alike (STEPWISE_HD).
#pragma once

#include <type_traits>

#include "algorithm/hd.hpp"
#include "algorithm/merge_path.hpp"

namespace stepwise {

/// The sequential load-balancing search: the merge of the item indices 0 .. item_count-1 with
/// @p offsets[0, object_count) (non-decreasing, offsets[0] = 0 when there are items; empty
/// objects repeat an offset; item indices fit in Offset). objects[i] is the object of item i,
/// ranks[i] its rank in it.
template <class Offset, class Index, class ObjectOut, class RankOut>
STEPWISE_HD void load_balance_search(const Offset* offsets, Index object_count, Index item_count, ObjectOut objects,
                                     RankOut ranks) {
  Index item = 0;
  Index next_object = 0;  // offsets taken so far: the item belongs to object next_object - 1
  while (item < item_count) {
    if (next_object < object_count &&
        !merge_takes_a<Bounds::upper>(static_cast<Offset>(item), offsets[next_object], Less{})) {
      ++next_object;  // an object starts at or before this item
    } else {
      objects[item] = static_cast<std::decay_t<decltype(objects[0])>>(next_object - 1);
      ranks[item] = static_cast<std::decay_t<decltype(ranks[0])>>(item - offsets[next_object - 1]);
      ++item;
    }
  }
}

/// One thread's piece of the load-balancing search: VT steps of the merge of the items
/// items[a_begin, a_end) (a CountingIterator) with offsets[b_begin, b_end), from the thread's
/// Merge Path cross point (Bounds::upper). For each item step it calls `emit(a_index, b_index)`:
/// b_index offsets of the array are at or below the item, so it belongs to object b_index - 1
/// of that array.
template <int VT, class ItemIt, class OffsetIt, class Index, class Emit>
STEPWISE_HD void serial_load_balance(ItemIt items, Index a_begin, Index a_end, OffsetIt offsets, Index b_begin,
                                     Index b_end, Emit&& emit) {
  serial_merge<VT, Bounds::upper>(items, a_begin, a_end, offsets, b_begin, b_end, Less{},
                                  [&](int, bool from_a, Index a_index, Index b_index, const auto&) {
                                    if (from_a) emit(a_index, b_index);
                                  });
}

}  // namespace stepwise
