// The set-operation table, in teaching order, and the workspace its rows share.
#include <cub/device/device_scan.cuh>

#include <algorithm>

#include "algorithm/lookback.hpp"
#include "host/check.hpp"
#include "setop.cuh"

namespace stepwise::segmented {
namespace {

/// CUB's storage for an exclusive sum of @p count int64 values (asks CUB: needs the CUDA runtime).
std::size_t scan_temp_bytes(std::uint64_t count) {
  std::size_t bytes = 0;
  STEPWISE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<std::int64_t*>(nullptr),
                                                    static_cast<std::int64_t*>(nullptr),
                                                    static_cast<std::int64_t>(count), nullptr));
  return bytes;
}

std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

std::size_t per_element_bytes(std::uint64_t total) {
  return aligned((total + 1) * sizeof(std::int64_t)) + aligned(scan_temp_bytes(total + 1));
}

std::size_t tiled_bytes(std::uint64_t total, int tile_items) {
  const auto tiles = static_cast<std::uint64_t>(set_tiles(static_cast<std::int64_t>(total), tile_items));
  const std::size_t cuts = 2 * aligned((tiles + 1) * sizeof(std::int64_t));
  const std::size_t counts = aligned((tiles + 1) * sizeof(std::int64_t)) + aligned(scan_temp_bytes(tiles + 1));
  return cuts + std::max(counts, aligned(packed_lookback_layout(tiles).total_bytes));
}

}  // namespace

const std::vector<SetOpStage>& setop_stages() {
  static const std::vector<SetOpStage> table = numbered<SetOpStage>({
      setop_per_element(),      // stages/setop/01_per_element.cu
      setop_balanced_path(),    // stages/setop/02_balanced_path.cu
      setop_tuned(),            // stages/setop/03_tuned.cu
      library_thrust_set_op(),  // stages/setop/lib_thrust_set_op.cu
  });
  return table;
}

std::size_t setop_workspace_bytes(std::uint64_t a_count, std::uint64_t b_count) {
  const std::uint64_t total = a_count + b_count;
  // Thrust's set operations take a tile status array and partitions, a few hundred bytes per tile of a
  // few thousand elements, from the same workspace: stage 1's 8 bytes per element hold them, and the
  // floor covers the smallest inputs, where Thrust's fixed padding outweighs them.
  constexpr std::size_t kFloor = std::size_t{1} << 20;
  return std::max({per_element_bytes(total), tiled_bytes(total, kMinSetTile), kFloor});
}

PerElementScratch carve_per_element(Workspace& workspace, std::uint64_t a_count, std::uint64_t b_count) {
  const std::uint64_t total = a_count + b_count;
  PerElementScratch scratch;
  scratch.places = workspace.carve<std::int64_t>(0, total + 1);
  const std::size_t offset = aligned((total + 1) * sizeof(std::int64_t));
  scratch.scan_temp_bytes = scan_temp_bytes(total + 1);
  scratch.scan_temp = workspace.carve<unsigned char>(offset, scratch.scan_temp_bytes);
  return scratch;
}

TiledScratch carve_tiled(Workspace& workspace, std::uint64_t a_count, std::uint64_t b_count, int tile_items) {
  const std::uint64_t total = a_count + b_count;
  TiledScratch scratch;
  scratch.tiles = set_tiles(static_cast<std::int64_t>(total), tile_items);
  const auto boundaries = static_cast<std::size_t>(scratch.tiles) + 1;
  const std::size_t cut_bytes = aligned(boundaries * sizeof(std::int64_t));
  scratch.cuts.a = workspace.carve<std::int64_t>(0, boundaries);
  scratch.cuts.b = workspace.carve<std::int64_t>(cut_bytes, boundaries);
  const std::size_t rest = 2 * cut_bytes;
  scratch.tile_counts = workspace.carve<std::int64_t>(rest, boundaries);
  scratch.scan_temp_bytes = scan_temp_bytes(boundaries);
  scratch.scan_temp = workspace.carve<unsigned char>(rest + cut_bytes, scratch.scan_temp_bytes);
  scratch.lookback =
      workspace.carve<unsigned char>(rest, packed_lookback_layout(static_cast<std::size_t>(scratch.tiles)).total_bytes);
  return scratch;
}

}  // namespace stepwise::segmented
