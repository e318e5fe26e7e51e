/// @file segreduce.hpp
/// Segmented reduce (--problem segreduce): out[s] = the sum of values[offsets[s], offsets[s + 1])
/// for every segment s, 0 for an empty one. Its stages go from a thread per segment to a
/// load-balanced Merge Path over offsets and items (SpMV's merge-based decomposition, chapter 04)
/// and a polyalgorithm, against cub::DeviceSegmentedReduce::Sum and cub::DeviceReduce::ReduceByKey.
///
/// Every row runs for any n and any segment count with 64-bit offsets; int32 sums wrap mod 2^32
/// (added as uint32); a launcher only enqueues work and takes its scratch from the workspace.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "host/stage.hpp"
#include "host/workspace.hpp"
#include "segments.hpp"
#include "work.hpp"

namespace stepwise::segmented {

/// The device operands of one segmented reduce.
template <class T>
struct SegReduceArgs {
  const T* values = nullptr;                   ///< n items
  const std::uint64_t* offsets = nullptr;      ///< segments + 1 offsets: offsets[0] = 0, offsets[segments] = n
  const std::uint32_t* segment_ids = nullptr;  ///< n keys, the segment of each item (ReduceByKey's keys)
  T* out = nullptr;                            ///< segments sums
  std::uint64_t n = 0;
  std::uint64_t segments = 0;
  /// The statistics of the offsets, computed on the host with them (the tuned stage picks by them).
  SegmentStats stats;
};

/// What every row is called with: the operands, the scratch of the table (partitions, carries,
/// CUB's temporary storage; allocated before timing), the shape and the stream.
template <class T>
using SegReduceLaunch = void (*)(const SegReduceArgs<T>& args, Workspace& workspace, const LaunchShape& shape,
                                 cudaStream_t stream);

/// The facts of one row, set in its own file.
struct SegReduceTraits {
  /// The work plan of the row at its shape @p shape for inputs like @p stats: fixed for most
  /// rows; the tuned row picks by the statistics. Null for the library rows.
  WorkPlan (*plan)(const SegmentStats& stats, const LaunchShape& shape) = nullptr;
  /// The tuned row: why it picks what it picks for @p stats (the report's note); null elsewhere.
  std::string (*explain)(const SegmentStats& stats) = nullptr;
  /// Whether the row needs the segment id of every item (ReduceByKey's keys).
  bool needs_segment_ids = false;
};

template <class T>
using SegReduceStage = Stage<SegReduceLaunch<T>, SegReduceTraits>;
/// A row as host-only code reads it.
using SegReduceRow = RowFacts<SegReduceTraits>;

/// The value types, named once for every stage file: applies `X(T, ...)` to each, joined by `;`.
#define SEGMENTED_FOR_EACH_TYPE(X, ...) \
  X(std::int32_t, __VA_ARGS__);         \
  X(float, __VA_ARGS__);                \
  X(double, __VA_ARGS__)
/// Instantiates `SegReduceStage<T> factory<T>()` for each value type: the last line of a stage file.
#define SEGREDUCE_STAGE_ROWS(factory) SEGMENTED_FOR_EACH_TYPE(STEPWISE_STAGE_ROW, SegReduceStage, factory)

/// The table: stages in teaching order, then the library rows.
template <class T>
const std::vector<SegReduceStage<T>>& segreduce_stages();

template <class T>
SegReduceStage<T> segreduce_thread();  ///< stage 1, stages/segreduce/01_thread_per_segment.cu
template <class T>
SegReduceStage<T> segreduce_warp();  ///< stage 2, stages/segreduce/02_warp_per_segment.cu
template <class T>
SegReduceStage<T> segreduce_block();  ///< stage 3, stages/segreduce/03_block_per_segment.cu
template <class T>
SegReduceStage<T> segreduce_merge_path();  ///< stage 4, stages/segreduce/04_merge_path.cu
template <class T>
SegReduceStage<T> segreduce_tuned();  ///< stage 5, stages/segreduce/05_tuned.cu
template <class T>
SegReduceStage<T> library_cub_segmented_reduce();  ///< stages/segreduce/lib_cub_segmented_reduce.cu
template <class T>
SegReduceStage<T> library_cub_reduce_by_key();  ///< stages/segreduce/lib_cub_reduce_by_key.cu

/// CUB's temporary storage for cub::DeviceSegmentedReduce::Sum over @p segments segments and for
/// cub::DeviceReduce::ReduceByKey over @p n items (asks CUB: needs the CUDA runtime).
template <class T>
std::size_t cub_segmented_reduce_temp_bytes(std::uint64_t segments);
template <class T>
std::size_t cub_reduce_by_key_temp_bytes(std::uint64_t n);

/// The fewest merge steps per thread (VT) a Merge Path row of the table runs with: it sizes the
/// carries in the workspace.
inline constexpr int kMinMergeSteps = 3;

/// The Merge Path rows' pieces of the workspace: one partition (int64) per thread and the end,
/// and one carry (segment, partial sum) per thread.
std::size_t merge_scratch_bytes(std::uint64_t n, std::uint64_t segments, std::size_t value_bytes);

/// The library rows' pieces: CUB's storage, and ReduceByKey's outputs (a key and a sum per
/// segment and the count of runs) before they are scattered to out.
template <class T>
std::size_t library_scratch_bytes(std::uint64_t n, std::uint64_t segments);

/// The workspace every row of the table needs (asks CUB).
template <class T>
std::size_t segreduce_workspace_bytes(std::uint64_t n, std::uint64_t segments);

/// The segment id of every item of @p offsets (what ReduceByKey reduces by): built on the host,
/// outside the timing.
/// @throws std::length_error for more than 2^32 - 1 segments.
std::vector<std::uint32_t> segment_ids_of(const std::vector<std::uint64_t>& offsets);

}  // namespace stepwise::segmented
