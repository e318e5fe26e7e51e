/// @file lanes.hpp
/// The worked example `--analyze --format json` draws for segmented reduce (tools/plot analysis,
/// figure segment-lanes): a dozen or so segments drawn from --segments' distribution over a few
/// dozen items, and for each work plan which lane of which warp, block or Merge Path thread
/// handles which item at which step. The per-segment plans follow lane_work's model (work.hpp:
/// the lanes of a group stride over their segment, a warp runs as long as its longest segment);
/// Merge Path's threads are cut by merge_path and walked by merge_reduce_walk, the functions the
/// kernels and the partition kernel run. Host code only: no CUDA header.
#pragma once

#include <cstdint>
#include <vector>

#include "segments.hpp"
#include "work.hpp"

namespace stepwise::segmented {

/// The seed of the example's segments: fixed, so that the diagram is the same whatever --seed is.
inline constexpr std::uint64_t kLanesExampleSeed = 2;
/// The example stops growing at this many segments, or at kLanesExampleMostItems items.
inline constexpr std::uint64_t kLanesExampleSegments = 12;
inline constexpr std::uint64_t kLanesExampleMostItems = 64;
/// uniform:L draws with a mean of at most this in the example, so that a dozen segments fit a few dozen items.
inline constexpr double kLanesExampleMostMean = 3;

/// The distribution the example draws from: @p spec itself, except that uniform:L with L above
/// kLanesExampleMostMean becomes uniform:kLanesExampleMostMean (the same shape, shorter).
SegmentSpec lanes_example_spec(const SegmentSpec& spec);

/// The example's offsets: make_offsets(n, lanes_example_spec(@p spec), kLanesExampleSeed) for
/// the smallest n from 1 that gives kLanesExampleSegments segments, or n = kLanesExampleMostItems.
std::vector<std::uint64_t> lanes_example_offsets(const SegmentSpec& spec);

/// One lane-step that handles something: item @p item of segment @p segment, or (Merge Path,
/// item -1) the end of segment @p segment.
struct LaneCell {
  int lane = 0;               ///< the lane in its unit (a warp's or a block's thread; 0 for a Merge Path thread)
  int step = 0;               ///< the trip through the loop, from 0
  std::int64_t item = -1;     ///< the item added, or -1 when the step closes a segment
  std::uint64_t segment = 0;  ///< the item's segment, or the segment closed
};

/// One unit of a plan's work over the example: a warp (a thread or a group of lanes per
/// segment), a block (a block per segment) or a Merge Path thread. It runs lanes x steps
/// lane-steps; those not in @p cells handle nothing (idle).
struct LaneUnit {
  std::uint64_t index = 0;              ///< the warp, block or thread
  int lanes = 0;                        ///< its lanes (32 for a warp; the block's threads; 1 for a thread)
  int steps = 0;                        ///< the trips through its loop: its longest segment's, at least 1
  std::vector<std::uint64_t> segments;  ///< the segments it handles (Merge Path: those whose end it takes)
  std::vector<LaneCell> cells;          ///< the lane-steps that handle an item or an end
  std::uint64_t a = 0;                  ///< Merge Path: the ends before its first step (its cross point)
  std::uint64_t b = 0;                  ///< Merge Path: the items before its first step
};

/// The units of @p plan over the segments of @p offsets: for a thread or a group of L lanes per
/// segment, one warp per 32 / L segments whose group g takes segment 32 / L x warp + g and
/// whose lane l adds items offsets[s] + l, + L, ... (one per step); for a block of B threads, one
/// block per segment, thread l adding items offsets[s] + l, + B, ...; for Merge Path, one thread
/// per VT steps of the merge of the segment ends with the items, its first step where merge_path
/// crosses diagonal VT x thread, its steps merge_reduce_walk's. The lanes x steps of the units
/// add up to lane_work(@p plan, @p offsets).lane_steps. Empty for a tile or library plan.
std::vector<LaneUnit> lane_units(const WorkPlan& plan, const std::vector<std::uint64_t>& offsets);

}  // namespace stepwise::segmented
