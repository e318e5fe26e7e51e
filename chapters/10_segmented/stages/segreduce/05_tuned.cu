// Stage 5, tuned: a polyalgorithm that picks the decomposition by the segment-length statistics.
//
// Changed from stage 4: no single decomposition suits every distribution (--analyze counts the
// idle lanes of each: stage 1 idles none on segments of one item, Merge Path half of them there,
// stages 2 and 3 almost none on long even segments), and the statistics that decide are cheap:
// the mean length, the longest segment and the share of items in long segments, computed with
// the offsets. So stage 5 measures and dispatches, as a library's tuning policies do:
//   - long segments hold at least 10 % of the items: if they are all alike (the longest at
//     most four times the mean), a block per segment (stage 3); if not, Merge Path (stage 4),
//     the only decomposition that a single huge segment cannot stall;
//   - otherwise, if the lengths are uneven (the longest more than three times the mean, plus one:
//     many empty segments, or a tail of long ones), Merge Path too: a group's loop runs as
//     long as the longest segment of its warp, so most of its lanes would idle (--analyze: 69
//     to 97 % on empty:50, empty:99 and zipf:2.5), while Merge Path's tiles read every item and
//     end with coalesced loads and spend one step on an empty segment;
//   - otherwise (even lengths), a group of lanes per segment sized to the mean: the power of two
//     nearest mean / 4 on a log scale, from 1 lane (a thread per segment, stage 1's work with
//     stage 2's loop) to 32 (a warp, stage 2), so that each lane adds about four items and few
//     lanes idle. Nearest, not the next above: uniform:32's mean is 32 give or take a sample's
//     noise, and eight lanes must not turn into sixteen (half of them idle) when it is 32.003.
// The report's notes say what it picked for the run's input, and --analyze counts it.
// Where it picks Merge Path, its three kernels (partitions, tiles, carries) run as a shorter
// chain than stage 4's: each of the last two is a programmatic dependent launch
// (common/host/dependent_launch.hpp), which starts while the kernel before it finishes, and
// while the tiles are few (their boundaries' warps fit the GPU at once) a warp searches each
// tile boundary, 32 probes a step (common/device/warp_merge_path.cuh). At small n the sort of
// chapter 09 and this reduce are a few short kernels, whose launches and searches are most of
// their time. The variant rows undo one change each.
#include <cmath>
#include <sstream>

#include "host/dispatch.hpp"
#include "segreduce.cuh"

namespace stepwise::segmented {
namespace {

constexpr int kMergeThreads = 128;
using Steps = IntList<7, 11>;

WorkPlan pick(const SegmentStats& stats, const LaunchShape& shape) {
  const double mean = stats.mean_length();
  if (stats.items_in_long * 10 > stats.items) {
    if (static_cast<double>(stats.max_length) <= 4.0 * mean) return {WorkUnit::block, shape.threads, 0};
    return {WorkUnit::merge, 1, shape.items};
  }
  if (static_cast<double>(stats.max_length) > 3.0 * mean + 1.0) return {WorkUnit::merge, 1, shape.items};
  int lanes = 1;
  while (lanes < 32 && 4.0 * lanes * std::sqrt(2.0) < mean) lanes *= 2;
  return {WorkUnit::group, lanes, 0};
}

std::string explain(const SegmentStats& stats) {
  const WorkPlan plan = pick(stats, {256, 7, 8});
  std::ostringstream text;
  text << "tuned picks ";
  switch (plan.unit) {
    case WorkUnit::block:
      text << "a block per segment";
      break;
    case WorkUnit::merge:
      text << "Merge Path";
      break;
    default:
      text << plan.lanes << (plan.lanes == 1 ? " lane" : " lanes") << " per segment";
  }
  text.precision(3);
  text << ": mean length " << stats.mean_length() << ", longest " << stats.max_length << ", "
       << (stats.items == 0 ? 0.0 : 100.0 * static_cast<double>(stats.items_in_long) / stats.items)
       << " % of the items in segments longer than " << kLongSegment;
  return text.str();
}

/// Stage 5's chain of the Merge Path kernels: dependent launches (@p kDependent), a warp per tile
/// boundary where the tiles are few (or, with @p kSwapSearch, where they are many). The variant
/// rows undo one each.
template <class T, bool kDependent = true, bool kSwapSearch = false>
void launch(const SegReduceArgs<T>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  const WorkPlan plan = pick(args.stats, shape);
  const unsigned grid = resident_grid(shape);
  switch (plan.unit) {
    case WorkUnit::block:
      dispatch(shape.threads, IntList<256>{}, "threads per block", [&](auto threads) {
        block_per_segment<decltype(threads)::value>
            <<<grid, decltype(threads)::value, 0, stream>>>(args.values, args.offsets, args.out, args.segments);
        STEPWISE_CHECK_LAUNCH();
      });
      return;
    case WorkUnit::merge:
      dispatch(shape.items, Steps{}, "merge steps per thread", [&](auto steps) {
        launch_merge_path_reduce<kMergeThreads, decltype(steps)::value, T, MergeLoads::vectors, kDependent, true,
                                 kSwapSearch>(args, workspace, stream);
      });
      return;
    default:
      dispatch(plan.lanes, IntList<1, 2, 4, 8, 16, 32>{}, "lanes per segment", [&](auto lanes) {
        group_per_segment<decltype(lanes)::value>
            <<<grid, shape.threads, 0, stream>>>(args.values, args.offsets, args.out, args.segments);
        STEPWISE_CHECK_LAUNCH();
      });
  }
}

}  // namespace

template <class T>
SegReduceStage<T> segreduce_tuned() {
  SegReduceStage<T> stage;
  stage.name = "tuned";
  stage.lesson =
      "picks lanes per segment, a block, or Merge Path by the length statistics; Merge Path's kernels as a short "
      "chain";
  stage.shape = {256, 7, 8};
  stage.sweep = shape_grid({256}, Steps::values(), {4, 8});
  stage.launch = launch<T>;
  stage.traits.plan = pick;
  stage.traits.explain = explain;
  stage.variants = {
      variant_of(stage, "dependent launch",
                 "Merge Path's three kernels launched the ordinary way, each after the one before has finished",
                 launch<T, false, false>),
      variant_of(stage, "boundary search",
                 "the other partition search: one thread's binary search per tile boundary (stage 4) where stage 5 "
                 "gives each a warp (few tiles), a warp where it gives a thread",
                 launch<T, true, true>),
  };
  return stage;
}

SEGREDUCE_STAGE_ROWS(segreduce_tuned);

}  // namespace stepwise::segmented
