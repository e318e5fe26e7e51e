/// @file 01_idle_lanes.hpp
/// Exercise 10-1 (README.md): the lane-steps and the most items per thread of a work plan over a set of
/// segments, what --analyze prints for every kernel row.
#pragma once

#include <cstdint>
#include <vector>

#include "work.hpp"

namespace stepwise::segmented::exercises {

/// Your function: what @p plan's lanes do over the segments of @p offsets (segment s holds the items
/// [offsets[s], offsets[s + 1]); n = offsets.back()): the lane-steps its threads run, every lane of a warp
/// counted for as long as the warp runs, and the most items one thread handles. The units (work.hpp):
/// - thread (lanes = 1) and group (lanes = L): a warp holds 32 / L segments, L lanes each, and runs as many
///   steps as its longest segment needs, ceil(length / L), at least one (an empty segment too);
/// - block (lanes = B): each segment gets a block of B lanes for max(1, ceil(length / B)) steps;
/// - merge (steps = VT): ceil((n + segments) / VT) threads of VT steps, each thread at most VT items;
/// - tile (lanes = NT, steps = VT): ceil(n / (NT x VT)) tiles of NT threads of VT steps.
LaneWork predicted_work(const WorkPlan& plan, const std::vector<std::uint64_t>& offsets);

}  // namespace stepwise::segmented::exercises
