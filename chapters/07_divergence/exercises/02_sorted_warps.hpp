/// @file 02_sorted_warps.hpp
/// Exercise 07-2 (README.md): the divergent warps a remap by path leaves.
#pragma once

#include <cstddef>
#include <vector>

namespace stepwise::divergence::exercises {

/// Your function: the divergent warps (holding more than one path) once the elements are ordered
/// by path, as stage 3's sort orders them, in warps of @p warp_width threads (thread t on the t-th
/// element of the order; the last warp may be short). @p histogram[p] is the number of elements
/// that take path p (some may be 0). A closed form of the histogram: no list of elements.
std::size_t divergent_after_sort(const std::vector<std::size_t>& histogram, std::size_t warp_width);

}  // namespace stepwise::divergence::exercises
