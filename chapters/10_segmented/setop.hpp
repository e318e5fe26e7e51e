/// @file setop.hpp
/// Set operations on sorted multisets (--problem setop): out = std::set_intersection, set_union,
/// set_difference or set_symmetric_difference (--op) of two sorted int32 multisets A and B
/// (--sets). Its stages go from a binary search per element to Merge Path tiles with a serial
/// set-op loop per thread (Balanced Path) and a single pass, against thrust::set_*.
///
/// The output's length depends on the data: every row writes it to a device int64 beside the
/// output, which is allocated at the bound (set_op_bound). Every row runs for any sizes, either
/// input empty included, with 64-bit offsets; a launcher only enqueues work and takes its scratch
/// from the workspace.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "host/stage.hpp"
#include "host/workspace.hpp"
#include "set_ops.hpp"
#include "setop_analysis.hpp"

namespace stepwise::segmented {

/// The device operands of one set operation.
struct SetOpArgs {
  SetOp op = SetOp::intersection;
  const SetKey* a = nullptr;          ///< a_count keys, sorted
  const SetKey* b = nullptr;          ///< b_count keys, sorted
  SetKey* out = nullptr;              ///< room for set_op_bound(op, a_count, b_count) keys
  std::int64_t* out_count = nullptr;  ///< the row writes the output's length here
  std::uint64_t a_count = 0;
  std::uint64_t b_count = 0;
};

/// What every row is called with: the operands, the table's scratch (allocated before timing),
/// the shape and the stream.
using SetOpLaunch = void (*)(const SetOpArgs& args, Workspace& workspace, const LaunchShape& shape,
                             cudaStream_t stream);

using SetOpStage = Stage<SetOpLaunch, SetOpTraits>;

/// The table: stages in teaching order, then the library rows.
const std::vector<SetOpStage>& setop_stages();

SetOpStage setop_per_element();      ///< stage 1, stages/setop/01_per_element.cu
SetOpStage setop_balanced_path();    ///< stage 2, stages/setop/02_balanced_path.cu
SetOpStage setop_tuned();            ///< stage 3, stages/setop/03_tuned.cu
SetOpStage library_thrust_set_op();  ///< thrust::set_*, stages/setop/lib_thrust_set_op.cu

/// The fewest elements a balanced-path tile of the table holds (NT*VT): it sizes the tile
/// boundaries and statuses in the workspace.
inline constexpr int kMinSetTile = 128 * 7;

/// The workspace every row of the table needs for inputs of @p a_count and @p b_count keys
/// (stage 1's decisions are the largest piece; Thrust's storage fits in them; 1 MiB at least).
std::size_t setop_workspace_bytes(std::uint64_t a_count, std::uint64_t b_count);

}  // namespace stepwise::segmented
