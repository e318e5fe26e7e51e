// GPU tests of chapter 00: every row of the stage table, at the sizes where off-by-one and
// tail bugs live and at every shape its --sweep tries, outputs poisoned first, exact
// comparison, nothing written outside the output. A new stage is tested with no edit here.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>

#include "bandwidth.hpp"
#include "copy_checks.hpp"
#include "host/device_buffer.hpp"

using namespace stepwise;
using namespace stepwise::bandwidth;
using namespace stepwise::testing;

TEST_CASE("every row of the table copies exactly, at every edge size, with its default shape") {
  for (const CopyStage& stage : copy_stages()) check_edge_sizes(stage);
}

TEST_CASE("every stage copies exactly at every shape its sweep tries") {
  for (const CopyStage& stage : copy_stages()) check_sweep_shapes(stage);
}

TEST_CASE("tile and sequence stages are exact at their own tile edges") {
  for (const CopyStage& stage : copy_stages()) check_tile_edges(stage);
}

TEST_CASE("stages reject launch shapes they cannot run") {
  DeviceBuffer<std::int32_t> in(64);
  DeviceBuffer<std::int32_t> out(64);
  for (const CopyStage& stage : copy_stages()) {
    if (stage.kind != RowKind::kernel) continue;
    CAPTURE(stage.name);
    LaunchShape odd_threads = stage.shape;
    odd_threads.threads = 100;
    CHECK_THROWS_AS(stage.launch(in.data(), out.data(), 64, odd_threads, nullptr), std::invalid_argument);
    if (stage.shape.items != 0) {
      LaunchShape no_items = stage.shape;
      no_items.items = 0;
      CHECK_THROWS_AS(stage.launch(in.data(), out.data(), 64, no_items, nullptr), std::invalid_argument);
    }
    if (stage.shape.blocks_per_sm != 0) {
      LaunchShape no_grid = stage.shape;
      no_grid.blocks_per_sm = 0;
      CHECK_THROWS_AS(stage.launch(in.data(), out.data(), 64, no_grid, nullptr), std::invalid_argument);
    }
  }
}

TEST_CASE("vector stages reject misaligned pointers instead of faulting") {
  DeviceBuffer<std::int32_t> in(64);
  DeviceBuffer<std::int32_t> out(64);
  for (const CopyStage& stage : copy_stages()) {
    if (stage.name != "vector-int2" && stage.name != "vector-int4" && stage.name != "int4-unrolled" &&
        stage.name != "int4-tiles")
      continue;
    CAPTURE(stage.name);
    CHECK_THROWS_AS(stage.launch(in.data() + 1, out.data(), 32, stage.shape, nullptr), std::invalid_argument);
    CHECK_THROWS_AS(stage.launch(in.data(), out.data() + 1, 32, stage.shape, nullptr), std::invalid_argument);
  }
}
