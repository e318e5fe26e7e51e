// Stage 3, one launch: both bounds in one launch, B's matches from the upper merge.
//
// Changed from stage 2, phase 1: stage 2 reads A and B three times, once per sorted search.
// The merge that gives A's upper bounds (ties: B's key goes first) also passes every B key,
// and when it takes B[j] its A cursor is the number of A keys below B[j]: B[j]'s lower bound
// in A, which is all a right or outer join needs to know whether A holds B[j]. So the third
// search is free: one kernel runs the lower-bound merge tiles and the upper-bound merge tiles
// side by side in one grid (blocks [0, T) and [T, 2T)), and the upper tiles record the cursor of
// both sides. A and B are read twice instead of three times, and one launch replaces three.
// Phases 2 and 3 are stage 2's.
#include "host/dispatch.hpp"
#include "join.cuh"

namespace stepwise::join {
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
  constexpr int kTile = NT * VT;
  static_assert(kTile >= kMinTileItems, "the partition arrays hold boundaries of kMinTileItems tiles or more");
  using Load = VectorizedRangeLoad<NT, VT, std::int32_t>;
  __shared__ alignas(16) std::int32_t keys[kTile + Load::kPad];
  __shared__ std::int32_t results[kTile];  // A steps at [0, a_count), B steps at [a_count, a_count + b_count)
  const bool upper_half = blockIdx.x >= tiles_per_search;
  const std::int64_t tile = upper_half ? blockIdx.x - tiles_per_search : blockIdx.x;
  const std::int64_t* partitions = upper_half ? upper_partitions : lower_partitions;
  const MergeRange<std::int64_t> range =
      tile_merge_range<std::int64_t>(a_size, b_size, tile, kTile, partitions[tile], partitions[tile + 1]);
  const int a_count = static_cast<int>(range.a_count());
  const int b_count = static_cast<int>(range.b_count());
  Load load;
  load.load(a_keys, a_size, range.a_begin, a_count, b_keys, b_size, range.b_begin, b_count);
  const SharedRanges at = load.store(keys);
  __syncthreads();
  const std::int32_t* a = keys + at.a_offset;
  const std::int32_t* b = keys + at.b_offset;
  const int diagonal = min(VT * static_cast<int>(threadIdx.x), a_count + b_count);
  const auto b_first = static_cast<std::int32_t>(range.b_begin);
  const auto a_first = static_cast<std::int32_t>(range.a_begin);
  if (upper_half) {
    const int path = merge_path<Bounds::upper>(a, a_count, b, b_count, diagonal, Less{});
    serial_merge<VT, Bounds::upper>(a, path, a_count, b, diagonal - path, b_count, Less{},
                                    [&](int, bool from_a, int a_index, int b_index, const std::int32_t&) {
                                      if (from_a)
                                        results[a_index] = b_first + b_index;
                                      else
                                        results[a_count + b_index] = a_first + a_index;
                                    });
  } else {
    const int path = merge_path<Bounds::lower>(a, a_count, b, b_count, diagonal, Less{});
    serial_merge<VT, Bounds::lower>(a, path, a_count, b, diagonal - path, b_count, Less{},
                                    [&](int, bool from_a, int a_index, int b_index, const std::int32_t&) {
                                      if (from_a) results[a_index] = b_first + b_index;
                                    });
  }
  __syncthreads();
  std::int32_t* bounds = upper_half ? upper : lower;
  for (int j = threadIdx.x; j < a_count; j += NT) bounds[range.a_begin + j] = results[j];
  if (!upper_half || b_matched == nullptr) return;
  for (int j = threadIdx.x; j < b_count; j += NT) {
    // B[j]'s lower bound in A; A's key there is in this tile's A range unless it is the range's end.
    const std::int64_t in_a = results[a_count + j];
    const std::int64_t local = in_a - range.a_begin;
    const bool matched = in_a < a_size && (local < a_count ? a[local] : a_keys[in_a]) == b[j];
    b_matched[range.b_begin + j] = matched;
  }
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

JoinStage join_one_launch() {
  JoinStage stage;
  stage.name = "one-launch";
  stage.lesson = "both bounds in one launch, B's matches from the upper merge: A and B read twice, not three times";
  stage.shape = {256, 15};
  stage.sweep = tile_grid(Threads{}, Values{});
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::join
