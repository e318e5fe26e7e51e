/// @file merge_reduce.hpp
/// The walk of one thread of segmented reduce's Merge Path stages (segreduce.cuh), written once
/// for the host and the device (STEPWISE_HD): the kernels run it (the tile over its ends and
/// items in shared memory, the thread-per-partition variant over global memory), and the CPU
/// tests run it for every thread of a decomposition to check that the partitions, the walks and
/// the carries add up to the reference.
#pragma once

#include <cstdint>

#include "algorithm/hd.hpp"

namespace stepwise::segmented {

/// The partial sum a Merge Path thread leaves for a segment it did not finish.
template <class A>
struct Carry {
  std::uint64_t segment;  ///< the segment still open at the thread's last step; the segment count for none
  A sum;                  ///< the items of it the thread added
};

/// VT steps of the merge of the segment ends @p ends (segment s ends at ends[s]) with the item
/// indices, from the thread's cross point: the ends [a, a_end) and the items [b, b_end) are its
/// share (Merge Path, ties taking the end first). A step that takes an item adds `item(b)`; a step
/// that takes segment s's end calls `finish(s, sum)` and starts again from 0. Returns the carry:
/// the segment a_end, still open, and what the thread added to it. @p ends and the indices may be
/// global (uint64 offsets) or a tile's (int32 ends less the tile's first item, int indices).
template <int VT, class A, class End, class Index, class Item, class Finish>
STEPWISE_HD Carry<A> merge_reduce_walk(const End* ends, Index a, Index a_end, Index b, Index b_end, Item&& item,
                                       Finish&& finish) {
  A sum = 0;
  STEPWISE_UNROLL
  for (int step = 0; step < VT; ++step) {
    if (a < a_end && (b >= b_end || ends[a] <= b)) {
      finish(a++, sum);
      sum = 0;
    } else if (b < b_end) {
      sum += item(b++);
    }
  }
  return {static_cast<std::uint64_t>(a), sum};
}

}  // namespace stepwise::segmented
