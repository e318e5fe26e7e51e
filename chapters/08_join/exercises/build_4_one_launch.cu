// Exercise 08-4: build stage 3, both bounds in one launch, from stage 2 (README.md, "08-4").
//
// Stage 3's lesson (stages/03_one_launch.cu), changed from stage 2 in phase 1, the bounds: stage 2
// reads A and B three times, once per sorted search.
// The merge that gives A's upper bounds (ties: B's key goes first) also passes every B key,
// and when it takes B[j] its A cursor is the number of A keys below B[j]: B[j]'s lower bound
// in A, which is all a right or outer join needs to know whether A holds B[j]. So the third
// search is free: one kernel runs the lower-bound merge tiles and the upper-bound merge tiles
// side by side in one grid (blocks [0, T) and [T, 2T)), and the upper tiles record the cursor of
// both sides. A and B are read twice instead of three times, and one launch replaces three.
// Phases 2 and 3 are stage 2's.
//
// Start from stage 2 (stages/02_sorted_search.cu), whose three sorted searches each run
// search_tiles (join.cuh) over SortedSearchTile (common/device/merge_tile.cuh): a tile of the merge of needles
// and haystack in shared memory, a Merge Path search per thread, a serial merge that records each
// needle's bound. Write both_bounds below: the launcher (partitions of both merges, one grid of 2T
// tiles, then stage 2's scan and expansion) and the row are written. Then delete the first line of
// exercise_08_4_stage() and grade it on a GPU with
// `ctest --test-dir build -R exercise-08-4 --output-on-failure`.
#include "build_4_one_launch.hpp"
#include "host/dispatch.hpp"
#include "host/exercise.hpp"
#include "join.cuh"

namespace stepwise::join::exercises {
namespace {

using Threads = IntList<128, 256>;
using Values = IntList<7, 11, 15>;

/// Tile blockIdx.x of the lower-bound merge (blocks [0, tiles_per_search)) or of the
/// upper-bound merge (the rest). Both write A's bound per A row; the upper tiles also write,
/// when @p b_matched is set, whether A holds each B key.
template <int NT, int VT>
__global__ void __launch_bounds__(NT)
    both_bounds(const std::int32_t* __restrict__ a_keys, std::int64_t a_size, const std::int32_t* __restrict__ b_keys,
                std::int64_t b_size, std::int64_t tiles_per_search, const std::int64_t* __restrict__ lower_partitions,
                const std::int64_t* __restrict__ upper_partitions, std::int32_t* __restrict__ lower,
                std::int32_t* __restrict__ upper, std::uint8_t* __restrict__ b_matched) {
  // TODO: stage 2's search tile, twice over: this block's tile of the lower-bound merge or, for
  // blockIdx.x >= tiles_per_search, of the upper-bound merge (its partitions, tile_merge_range);
  // load its A and B ranges into shared memory (VectorizedRangeLoad, as SortedSearchTile does);
  // merge_path<bounds> on the thread's diagonal, then serial_merge<VT, bounds>, recording each A
  // key's cursor in B and, in the upper tiles, each B key's cursor in A; write A's bounds to lower
  // or upper, and, when b_matched is set, whether A holds each B key of the tile.
}

template <int NT, int VT>
void run(const JoinArgs& args, const Scratch& scratch, cudaStream_t stream) {
  constexpr int kTile = NT * VT;
  const auto a_count = static_cast<std::int64_t>(args.a_count);
  const auto b_count = static_cast<std::int64_t>(args.b_count);
  if (a_count > 0) {
    std::int64_t* lower_partitions = scratch.partitions;
    std::int64_t* upper_partitions = scratch.partitions + scratch.partition_count;
    launch_merge_path_partitions<Bounds::lower>(args.a_keys, a_count, args.b_keys, b_count, kTile, lower_partitions,
                                                Less{}, stream);
    launch_merge_path_partitions<Bounds::upper>(args.a_keys, a_count, args.b_keys, b_count, kTile, upper_partitions,
                                                Less{}, stream);
    const std::size_t tiles = ceil_div(args.a_count + args.b_count, kTile);
    both_bounds<NT, VT><<<grid_of(2 * tiles), NT, 0, stream>>>(
        args.a_keys, a_count, args.b_keys, b_count, static_cast<std::int64_t>(tiles), lower_partitions,
        upper_partitions, scratch.lower, scratch.upper, keeps_unmatched_b(args.kind) ? scratch.b_matched : nullptr);
    STEPWISE_CHECK_LAUNCH();
  } else if (b_count > 0 && keeps_unmatched_b(args.kind)) {
    // No A rows: no merge to run, and no B key is matched.
    STEPWISE_CUDA_CHECK(cudaMemsetAsync(scratch.b_matched, 0, args.b_count, stream));
  }
  scan_row_counts(args, scratch, stream);
  launch_expansion<NT, VT>(args, scratch, stream);
}

void launch(const JoinArgs& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_aligned(args.a_keys, 16);
  require_aligned(args.b_keys, 16);
  const Scratch scratch = carve(args, workspace);
  dispatch_tile(
      shape, Threads{}, Values{},
      [&](auto nt, auto vt) { run<decltype(nt)::value, decltype(vt)::value>(args, scratch, stream); },
      "threads per block", "values per thread");
}

}  // namespace

JoinStage exercise_08_4_stage() {
  // Delete the next line once both_bounds is written: until then the grader stops here.
  not_done_yet("08-4", "both_bounds", __FILE__);
  JoinStage stage;
  stage.name = "one-launch";
  stage.lesson = "both bounds in one launch, B's matches from the upper merge: A and B read twice, not three times";
  stage.shape = {256, 15};
  stage.sweep = tile_grid(Threads{}, Values{});
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::join::exercises
