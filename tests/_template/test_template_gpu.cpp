// GPU tests of the template chapter: every row of the table at the sizes where tail and off-by-one bugs live and at
// every shape its --sweep tries, outputs poisoned first, compared exactly with the CPU reference, nothing written
// outside the output. Rows are picked by their traits: a new stage is tested with no edit here.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "host/device_buffer.hpp"
#include "square.hpp"

using namespace stepwise;
using namespace stepwise::square;

namespace {

/// The sizes of every row's test: below, at and past a warp and an int4, and a large odd n (n % 4 = 3).
const std::size_t kSizes[] = {1, 2, 3, 4, 5, 31, 32, 33, 1000003};

/// Runs @p stage at @p n with @p shape on fresh random inputs over the whole int32 range and checks it.
void check_square(const SquareStage& stage, std::size_t n, const LaunchShape& shape) {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(stage.name);
  CAPTURE(describe(shape));
  CAPTURE(n);
  CAPTURE(seed);
  const std::vector<std::int32_t> input =
      random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
  testing::check_elementwise(stage.launch, input, square_on_cpu(input), shape);
}

}  // namespace

TEST_CASE("every row of the table squares exactly, at every edge size, with its default shape") {
  for (const SquareStage& stage : square_stages())
    for (std::size_t n : kSizes) check_square(stage, n, stage.shape);
}

TEST_CASE("every stage squares exactly at every shape its sweep tries") {
  for (const SquareStage& stage : square_stages())
    for (const LaunchShape& shape : stage.sweep)
      for (std::size_t n : kSizes) check_square(stage, n, shape);
}

TEST_CASE("a stage with nothing to do launches nothing and writes nothing") {
  DeviceBuffer<std::int32_t> in(4);
  DeviceBuffer<std::int32_t> out(4);
  for (const SquareStage& stage : square_stages()) {
    CAPTURE(stage.name);
    stage.launch(in.data(), out.data(), 0, stage.shape, nullptr);
    STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    testing::check_no_stray_writes();
  }
}

TEST_CASE("kernel stages refuse launch shapes they cannot run") {
  DeviceBuffer<std::int32_t> in(64);
  DeviceBuffer<std::int32_t> out(64);
  for (const SquareStage& stage : square_stages()) {
    if (stage.kind != RowKind::kernel) continue;
    CAPTURE(stage.name);
    LaunchShape odd_threads = stage.shape;
    odd_threads.threads = 100;
    CHECK_THROWS_AS(stage.launch(in.data(), out.data(), 64, odd_threads, nullptr), std::invalid_argument);
    if (stage.shape.items != 0) {  // a compile-time VT: only the compiled ones
      LaunchShape not_compiled = stage.shape;
      not_compiled.items = 3;
      CHECK_THROWS_AS(stage.launch(in.data(), out.data(), 64, not_compiled, nullptr), std::invalid_argument);
    }
    if (stage.traits.grid_stride) {  // a grid sized to the GPU needs its blocks per SM
      LaunchShape no_grid = stage.shape;
      no_grid.blocks_per_sm = 0;
      CHECK_THROWS_AS(stage.launch(in.data(), out.data(), 64, no_grid, nullptr), std::invalid_argument);
    }
  }
}

TEST_CASE("vector stages refuse misaligned pointers instead of faulting") {
  DeviceBuffer<std::int32_t> in(64);
  DeviceBuffer<std::int32_t> out(64);
  int vector_stages = 0;
  for (const SquareStage& stage : square_stages()) {
    if (stage.kind != RowKind::kernel || stage.traits.elements_per_load <= 1) continue;
    ++vector_stages;
    CAPTURE(stage.name);
    CHECK_THROWS_AS(stage.launch(in.data() + 1, out.data(), 32, stage.shape, nullptr), std::invalid_argument);
    CHECK_THROWS_AS(stage.launch(in.data(), out.data() + 1, 32, stage.shape, nullptr), std::invalid_argument);
  }
  CHECK(vector_stages >= 1);
}
