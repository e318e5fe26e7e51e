/// @file 02_subtree.hpp
/// Exercise 05-2 (README.md): the schedule of stage 4's sub-tree reduction over one warp's keys.
#pragma once

#include <vector>

#include "ops.hpp"

namespace stepwise::atomics::exercises {

/// One add of a round whose sum is read later: @p lane adds the value @p source held after the
/// round before.
struct SubtreeAdd {
  int lane = 0;
  int source = 0;
};

/// Your function: the rounds of the sub-tree reduction (the talk's stage 2, the chapter's stage
/// 4) over the peers of @p keys (lane l holds keys[l], 1 to 32 lanes). Each round lists, by lane
/// ascending, the adds whose sums are read: a lane still in the tree adds the value of its
/// nearest peer above that is still in the tree, and then the lanes of odd rank among those
/// still in it leave. One round per step of the largest group's tree; no round when every group
/// has one lane.
std::vector<std::vector<SubtreeAdd>> subtree_schedule(const std::vector<Key>& keys);

}  // namespace stepwise::atomics::exercises
