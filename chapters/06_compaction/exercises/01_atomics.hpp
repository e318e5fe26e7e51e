/// @file 01_atomics.hpp
/// Exercise 06-1 (README.md): the atomics each stage issues on the one output counter.
#pragma once

#include <cstdint>
#include <vector>

#include "traits.hpp"

namespace stepwise::compaction::exercises {

/// Your function: the atomics on the output counter that a stage issues over an input whose
/// element i is kept where @p kept[i] is true, when its atomics go @p where (traits.hpp's
/// CounterAtomics: none, one per kept element, one per warp of 32 consecutive elements holding
/// a kept element, one per tile of @p tile consecutive elements holding a kept element). Warps
/// and tiles start at element 0; the last one may be short. @p tile (>= 1) matters for per_tile only.
std::uint64_t counter_atomics(const std::vector<bool>& kept, CounterAtomics where, std::uint64_t tile);

}  // namespace stepwise::compaction::exercises
