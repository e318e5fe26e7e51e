/// @file scan_launch.cuh
/// Host-side launch helpers shared by scan_stages.cu and scan_sweep.cu.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "check.hpp"
#include "scan_kernels.cuh"
#include "scan_stages.hpp"

namespace stepwise::scan::detail {

constexpr std::size_t kMaxGridX = 2147483647;  // gridDim.x limit

inline unsigned grid_of(std::size_t blocks) {
  if (blocks > kMaxGridX)
    throw std::invalid_argument("n too large for one grid: " + std::to_string(blocks) + " blocks");
  return static_cast<unsigned>(blocks);
}

inline unsigned char* workspace_bytes(ScanWorkspace& workspace) {
  return static_cast<unsigned char*>(workspace.data());
}

/// Stage 6 for one compiled tile shape: clear the ticket and the tile statuses (part of
/// every run, as in CUB, so each timed repetition is a fresh scan), then one launch with
/// one block per tile.
template <int NT, int VT, class Op>
void launch_single_pass(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, ScanKind kind,
                        ScanWorkspace& workspace, const TileShape& tuning, cudaStream_t stream) {
  using T = typename Op::value_type;
  static_assert(NT * VT >= kMinSinglePassItems, "the workspace holds statuses for tiles of kMinSinglePassItems");
  workspace.require(n, sizeof(T));
  if (n == 0) return;
  constexpr int kTileItems = NT * VT;
  const std::size_t tiles = (n + kTileItems - 1) / kTileItems;
  const SinglePassLayout layout = single_pass_layout(tiles, sizeof(T));
  unsigned char* bytes = workspace_bytes(workspace);
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(bytes, 0, layout.clear_bytes, stream));
  auto* ticket = reinterpret_cast<unsigned*>(bytes);
  const bool exclusive = kind == ScanKind::exclusive;
  if constexpr (sizeof(T) == 4) {
    const kernels::PackedTileStatus<T> status{reinterpret_cast<unsigned long long*>(bytes + layout.status_offset)};
    const unsigned grid = grid_of(tiles);
    kernels::single_pass_scan<NT, VT, Op><<<grid, NT, 0, stream>>>(
        in, out, n, ticket, status, exclusive, tuning.backoff_ns, tuning.speculative, tuning.guess_shift);
  } else {
    const kernels::FlaggedTileStatus<T> status{reinterpret_cast<std::uint32_t*>(bytes + layout.status_offset),
                                               reinterpret_cast<T*>(bytes + layout.aggregates_offset),
                                               reinterpret_cast<T*>(bytes + layout.inclusives_offset)};
    const unsigned grid = grid_of(tiles);
    kernels::single_pass_scan<NT, VT, Op><<<grid, NT, 0, stream>>>(
        in, out, n, ticket, status, exclusive, tuning.backoff_ns, tuning.speculative, tuning.guess_shift);
  }
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace stepwise::scan::detail
