/// @file copy_checks.hpp
/// The GPU checks of one copy stage of chapter 00, which test_copy.cpp runs on every row of the
/// table and the grader of exercise 00-4 on the student's stage: random int32 data with a fresh
/// seed, the output poisoned first, every element compared, nothing written outside the output.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "bandwidth.hpp"
#include "gpu_checks.hpp"
#include "host/data.hpp"

namespace stepwise::testing {

/// The sizes where off-by-one and tail bugs live: one element, each tail of a 4-wide vector, a
/// warp and a block either side, and two large ones.
inline const std::vector<std::size_t>& copy_edge_sizes() {
  static const std::vector<std::size_t> sizes = {
      1, 2, 3, 4, 5, 31, 32, 33, 1023, 1024, 1025, (1u << 20) + 3, (1u << 24) + 1};
  return sizes;
}

/// The sizes every shape of a stage's sweep copies: one element, a warp and one, and a size no
/// power of two divides.
inline const std::vector<std::size_t>& copy_sweep_sizes() {
  static const std::vector<std::size_t> sizes = {1, 33, 100003};
  return sizes;
}

/// One checked copy of @p n random int32 by @p stage at @p shape. @return whether it passed.
inline bool check_copy(const bandwidth::CopyStage& stage, std::size_t n, const LaunchShape& shape) {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(stage.name);
  CAPTURE(describe(shape));
  CAPTURE(n);
  CAPTURE(seed);
  const std::vector<std::int32_t> input =
      random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
  return check_elementwise(stage.launch, input, input, shape);
}

/// @p stage at its default shape, at every size of copy_edge_sizes().
inline Tally check_edge_sizes(const bandwidth::CopyStage& stage) {
  Tally tally;
  for (std::size_t n : copy_edge_sizes()) tally.add(check_copy(stage, n, stage.shape));
  return tally;
}

/// @p stage at every shape of its sweep, at every size of copy_sweep_sizes().
inline Tally check_sweep_shapes(const bandwidth::CopyStage& stage) {
  Tally tally;
  for (const LaunchShape& shape : stage.sweep)
    for (std::size_t n : copy_sweep_sizes()) tally.add(check_copy(stage, n, shape));
  return tally;
}

/// A stage that copies in tiles (a shape with items): either side of its tile's edges, at its
/// shape and at 32 threads. Nothing for a stage without items.
inline Tally check_tile_edges(const bandwidth::CopyStage& stage) {
  Tally tally;
  if (stage.shape.items == 0) return tally;
  for (const LaunchShape& shape : {stage.shape, LaunchShape{32, stage.shape.items, stage.shape.blocks_per_sm}}) {
    const std::size_t tile = std::size_t{4} * shape.threads * shape.items;
    for (std::size_t n : {tile - 1, tile, tile + 1, 3 * tile + 5}) tally.add(check_copy(stage, n, shape));
  }
  return tally;
}

}  // namespace stepwise::testing
