// GPU tests of chapter 00: every row of the stage table, at the sizes where off-by-one and
// tail bugs live and at every shape its --sweep tries, outputs poisoned first, exact
// comparison, nothing written outside the output. A new stage is tested with no edit here.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "bandwidth.hpp"
#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "host/device_buffer.hpp"

using namespace stepwise;
using namespace stepwise::bandwidth;

namespace {

const std::size_t kSizes[] = {1, 2, 3, 4, 5, 31, 32, 33, 1023, 1024, 1025, (1u << 20) + 3, (1u << 24) + 1};

void check_copy(const CopyStage& stage, std::size_t n, const LaunchShape& shape) {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(stage.name);
  CAPTURE(describe(shape));
  CAPTURE(n);
  CAPTURE(seed);
  const std::vector<std::int32_t> input =
      random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
  testing::check_elementwise(stage.launch, input, input, shape);
}

}  // namespace

TEST_CASE("every row of the table copies exactly, at every edge size, with its default shape") {
  for (const CopyStage& stage : copy_stages())
    for (std::size_t n : kSizes) check_copy(stage, n, stage.shape);
}

TEST_CASE("every stage copies exactly at every shape its sweep tries") {
  for (const CopyStage& stage : copy_stages())
    for (const LaunchShape& shape : stage.sweep)
      for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{100003}}) check_copy(stage, n, shape);
}

TEST_CASE("tile and sequence stages are exact at their own tile edges") {
  for (const CopyStage& stage : copy_stages()) {
    if (stage.shape.items == 0) continue;
    for (const LaunchShape& shape : {stage.shape, LaunchShape{32, stage.shape.items, stage.shape.blocks_per_sm}}) {
      const std::size_t tile = std::size_t{4} * shape.threads * shape.items;
      for (std::size_t n : {tile - 1, tile, tile + 1, 3 * tile + 5}) check_copy(stage, n, shape);
    }
  }
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
