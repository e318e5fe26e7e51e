/// @file merge.hpp
/// Chapter 03: merge and two merge-like primitives, from per-element binary search to Merge Path.
///
/// Three problems, one table each (main's `--problem`):
/// - **merge**: two sorted arrays A and B (int32 or int64 keys, optionally with int32 values)
///   into one sorted array, stable: on equal keys, A's elements come first (std::merge).
/// - **search**: vectorized sorted search: for every needle of the sorted array A, its lower
///   (or upper) bound in the sorted haystack B, as an int32 index.
/// - **lbs**: load-balancing search: for every item of a CSR-like layout (the objects' offsets,
///   the exclusive scan of their counts), the object it belongs to and its rank inside it.
///
/// Every row runs for any sizes (either array empty included), with 64-bit global offsets; a
/// launcher only enqueues work. Scratch memory (the partition kernel's tile boundaries, the
/// libraries' temporary storage) comes from the byte Workspace (common/host/workspace.hpp)
/// allocated before timing: the tiled rows carve their tile boundaries from its start.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithm/merge_path.hpp"
#include "host/stage.hpp"
#include "host/workspace.hpp"

namespace stepwise::merge {

/// The values of a key-value merge: 32-bit, whatever the key type.
using Value = std::int32_t;

/// The smallest tile (NT x VT outputs) any tiled stage of the chapter compiles: it sizes the
/// partition kernel's workspace. Every tiled stage static_asserts that its tiles are no smaller.
inline constexpr int kMinTileItems = 128 * 7;

/// The search and the load-balancing search write int32 indices: the haystack, the items and
/// the objects are at most this long.
inline constexpr std::size_t kMaxIndexed = INT_MAX;

/// How a stage finds where its outputs come from: what `--analyze` counts for it and what the
/// tests expect of it. Set in the stage's own file.
enum class Work {
  library,             ///< a library row: the library's own plan, not counted
  per_element_search,  ///< one binary search of the other array per output element (per needle, per item)
  per_thread_path,     ///< one Merge Path search in global memory per thread, then a serial merge; no tiles
  tiled,               ///< a partition kernel's search per tile boundary, then one per thread in shared memory
};

/// The facts about a stage that the problems, --analyze and the tests read (every row of the
/// three tables), set in the stage's own file: nothing outside it names a stage.
struct MergeTraits {
  Work work = Work::library;
  /// Tiled stages: what else --analyze says about the stage's memory traffic.
  std::string note;
  /// The alignment in bytes the launcher requires of its arrays (16-byte loads), 0 for none.
  int aligned_bytes = 0;
};

/// Bytes of tile boundaries the tiled stages need for @p total outputs (tiles of at least
/// kMinTileItems outputs).
std::size_t partition_workspace_bytes(std::size_t total);

// ---------------------------------------------------------------------------------------------
// merge

/// What every row of a merge table is called with: A's keys (and values), B's keys (and values),
/// the output keys (and values), the sizes. Values are all null (a merge of keys) or all set (a
/// merge of key-value pairs). K is std::int32_t or std::int64_t.
template <class K>
using MergeLaunch = void (*)(const K* a_keys, const Value* a_values, const K* b_keys, const Value* b_values,
                             K* out_keys, Value* out_values, std::size_t a_count, std::size_t b_count,
                             Workspace& workspace, const LaunchShape& shape, cudaStream_t stream);
/// A row of a merge table.
template <class K>
using MergeStage = Stage<MergeLaunch<K>, MergeTraits>;

/// The key types the chapter merges and searches, named once for every stage file: applies `X(K, ...)` to
/// each (stage.hpp's STEPWISE_STAGE_ROW, STEPWISE_KEYED_FUNCTION), joined by `;`.
#define MERGE_FOR_EACH_KEY(X, ...) \
  X(std::int32_t, __VA_ARGS__);    \
  X(std::int64_t, __VA_ARGS__)
/// Instantiates the merge stage factory `MergeStage<K> factory<K>()` for each key type: the last
/// line of every stages/merge file.
#define MERGE_STAGE_ROWS(factory) MERGE_FOR_EACH_KEY(STEPWISE_STAGE_ROW, MergeStage, factory)

/// The merge table: stages 1-4 in teaching order, then CUB and Thrust. int32 and int64.
template <class K>
const std::vector<MergeStage<K>>& merge_stages();

/// Stage 1, stages/merge/01_naive.cu (each row's file holds its lesson, kernel and launcher).
template <class K>
MergeStage<K> merge_naive();
/// Stage 2, stages/merge/02_path_per_thread.cu.
template <class K>
MergeStage<K> merge_path_per_thread();
/// Stage 3, stages/merge/03_two_level.cu.
template <class K>
MergeStage<K> merge_two_level();
/// Stage 4, stages/merge/04_tuned.cu.
template <class K>
MergeStage<K> merge_tuned();
/// cub::DeviceMerge::MergeKeys / MergePairs, stages/merge/lib_cub_merge.cu.
template <class K>
MergeStage<K> merge_library_cub();
/// thrust::merge / merge_by_key, stages/merge/lib_thrust_merge.cu.
template <class K>
MergeStage<K> merge_library_thrust();

/// The temporary storage the CUB row asks for (MergePairs when @p pairs, else MergeKeys). Asks
/// CUB, which reads the current device: needs a GPU.
template <class K>
std::size_t cub_merge_temp_bytes(std::size_t a_count, std::size_t b_count, bool pairs);

/// The workspace every row of merge_stages<K>() runs in (as main allocates it; needs a GPU).
template <class K>
Workspace make_merge_workspace(std::size_t a_count, std::size_t b_count, bool pairs);

// ---------------------------------------------------------------------------------------------
// sorted search

/// What every row of a search table is called with: the sorted needles, the sorted haystack
/// (at most kMaxIndexed keys), the output (one int32 bound per needle), the sizes, and which
/// bound.
template <class K>
using SearchLaunch = void (*)(const K* needles, const K* haystack, std::int32_t* bounds_out, std::size_t needle_count,
                              std::size_t haystack_count, Bounds bounds, Workspace& workspace, const LaunchShape& shape,
                              cudaStream_t stream);
/// A row of a search table.
template <class K>
using SearchStage = Stage<SearchLaunch<K>, MergeTraits>;
/// Instantiates the search stage factory `SearchStage<K> factory<K>()` for each key type
/// (MERGE_FOR_EACH_KEY): the last line of every stages/search file.
#define SEARCH_STAGE_ROWS(factory) MERGE_FOR_EACH_KEY(STEPWISE_STAGE_ROW, SearchStage, factory)

/// The search table: stages 1-2, then thrust::lower_bound / upper_bound. int32 and int64.
template <class K>
const std::vector<SearchStage<K>>& search_stages();

/// Stage 1, stages/search/01_binary_search.cu.
template <class K>
SearchStage<K> search_binary();
/// Stage 2, stages/search/02_merge_path.cu.
template <class K>
SearchStage<K> search_merge_path();
/// The vectorized thrust::lower_bound / upper_bound, stages/search/lib_thrust_bound.cu.
template <class K>
SearchStage<K> search_library_thrust();

// ---------------------------------------------------------------------------------------------
// load-balancing search

/// What every row of the load-balancing table is called with: the objects' offsets (the
/// exclusive scan of their counts: non-decreasing, offsets[0] = 0), the two outputs (per item:
/// its object and its rank in it), the number of objects and of items (each at most
/// kMaxIndexed; items need at least one object).
using LbsLaunch = void (*)(const std::int32_t* offsets, std::int32_t* objects, std::int32_t* ranks,
                           std::size_t object_count, std::size_t item_count, Workspace& workspace,
                           const LaunchShape& shape, cudaStream_t stream);
/// A row of the load-balancing table.
using LbsStage = Stage<LbsLaunch, MergeTraits>;

/// The load-balancing table: stages 1-2, then the Thrust composition.
const std::vector<LbsStage>& lbs_stages();

/// Stage 1, stages/lbs/01_binary_search.cu.
LbsStage lbs_binary();
/// Stage 2, stages/lbs/02_merge_path.cu.
LbsStage lbs_merge_path();
/// thrust::upper_bound + thrust::for_each, stages/lbs/lib_thrust_lbs.cu.
LbsStage lbs_library_thrust();

}  // namespace stepwise::merge
