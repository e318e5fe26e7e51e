/// @file join.hpp
/// Chapter 08: relational joins on sorted tables (Baxter, "Turning the Crank on Streaming
/// Algorithms", part 4), built from the merge-like primitives of chapter 03: sorted search and
/// load-balancing search.
///
/// Every row computes the same output: the join of two sorted int32 key columns A and B as
/// (A row, B row) pairs, -1 for the missing side of an unmatched row, in the talk's order
/// (inputs.hpp's JoinPairs). Every row is the same three phases, and the stages differ in how
/// they do each:
/// 1. **bounds**: for each A row, the lower and upper bound of its key in B (its matches are
///    B[lower, upper)); for each B row, whether any A key equals it;
/// 2. **counts and scan**: the rows each A row emits (its matches, or one unmatched row for a
///    left or outer join) and each B row (one if unmatched in a right or outer join), and their
///    exclusive scan: where each object's rows start;
/// 3. **expansion**: each output row finds its object and rank, and writes its pair.
/// A launcher only enqueues work: the output has room for `capacity` rows (sized by the caller,
/// as after a count pass), and the row's count is written to the device.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/stage.hpp"
#include "host/workspace.hpp"
#include "inputs.hpp"

namespace stepwise::join {

/// The device operands of one join.
struct JoinArgs {
  const std::int32_t* a_keys = nullptr;  ///< a_count keys, sorted, 16-byte aligned
  const std::int32_t* b_keys = nullptr;  ///< b_count keys, sorted, 16-byte aligned
  std::size_t a_count = 0;
  std::size_t b_count = 0;  ///< a_count + b_count <= kMaxRows
  JoinKind kind = JoinKind::inner;
  std::int32_t* out_a = nullptr;  ///< capacity rows: the A row of each output row, or -1
  std::int32_t* out_b = nullptr;  ///< capacity rows: the B row of each output row, or -1
  /// Rows of room in out_a and out_b. A join of more rows writes the first `capacity` and
  /// reports its true count; a join must have at most kMaxRows rows.
  std::size_t capacity = 0;
  unsigned long long* row_count = nullptr;  ///< one counter: the join's row count
};

/// What every row is called with: the join's operands, the device scratch every row of the table
/// shares (the bounds, the objects' offsets, the partition kernels' tile boundaries, the
/// library's temporary storage; allocated before timing, join_workspace_bytes; a row overwrites
/// what it uses), the shape and the stream.
using JoinLaunch = void (*)(const JoinArgs& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream);
/// A row of the table.
using JoinStage = Stage<JoinLaunch>;

/// The table: stages 1-4 in teaching order, then the Thrust + CUB composition.
const std::vector<JoinStage>& join_stages();

JoinStage join_naive();           ///< stage 1, stages/01_naive.cu
JoinStage join_sorted_search();   ///< stage 2, stages/02_sorted_search.cu
JoinStage join_one_launch();      ///< stage 3, stages/03_one_launch.cu
JoinStage join_tuned();           ///< stage 4, stages/04_tuned.cu
JoinStage join_library_thrust();  ///< stages/lib_thrust_join.cu

/// The workspace bytes every row of the table needs for a join of @p a_count x @p b_count rows
/// into @p capacity rows of output (asks CUB for its scan's temporary storage: needs a GPU).
std::size_t join_workspace_bytes(std::size_t a_count, std::size_t b_count, std::size_t capacity);

}  // namespace stepwise::join
