/// @file 01_split.hpp
/// Exercise 03-1 (README.md): the Merge Path split of one cross diagonal.
#pragma once

#include <cstddef>
#include <vector>

namespace stepwise::merge::exercises {

/// Your function: how many of the first @p diagonal outputs of the stable merge of @p a and @p b
/// (both sorted ascending; a tie takes A's key first, as std::merge does) come from A. The other
/// diagonal minus that many come from B. @p diagonal is in [0, a.size() + b.size()].
/// A binary search along the diagonal: O(log min(|A|, |B|)) comparisons, no merge.
std::size_t merge_path_split(const std::vector<int>& a, const std::vector<int>& b, std::size_t diagonal);

}  // namespace stepwise::merge::exercises
