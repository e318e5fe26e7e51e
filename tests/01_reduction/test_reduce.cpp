// GPU tests of chapter 01: every row of the table x {int32, float32}, at the sizes where
// tail and pass bugs live with its default shape, and at every shape its --sweep tries for
// a few sizes. Random data with negative values and fresh seeds, the output poisoned before
// every run, nothing written outside any device buffer. int32 sums (mod 2^32) must be
// bit-exact; float sums within the chapter's tolerance of a double reference. A new stage
// is tested with no edit here.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>

#include "gpu_checks.hpp"
#include "host/device_buffer.hpp"
#include "reduce_checks.hpp"
#include "reduction.hpp"

using namespace stepwise;
using namespace stepwise::reduction;
using namespace stepwise::testing;

TEST_CASE_TEMPLATE("every row sums correctly at every edge size with its default shape", T, std::uint32_t, float) {
  check_edge_sizes(reduce_stages<T>());
}

TEST_CASE_TEMPLATE("every stage sums correctly at every shape its sweep tries", T, std::uint32_t, float) {
  check_sweep_shapes(reduce_stages<T>());
}

TEST_CASE_TEMPLATE("repeated runs on one workspace give the same bits (single-pass counter reset)", T, std::uint32_t,
                   float) {
  check_repeatable(reduce_stages<T>());
}

TEST_CASE_TEMPLATE("n = 0 gives the identity, 0, at every shape", T, std::uint32_t, float) {
  check_empty(reduce_stages<T>());
}

TEST_CASE("int32 beyond 2^32 elements: 64-bit indices in every stage") {
  check_beyond_2_32(reduce_stages<std::uint32_t>());
}

TEST_CASE("launchers reject launch shapes and inputs they cannot run") {
  DeviceBuffer<float> in(64);
  DeviceBuffer<float> out(1);
  ReduceWorkspace<float> workspace(64);
  for (const ReduceStage<float>& stage : reduce_stages<float>()) {
    CAPTURE(stage.name);
    // More elements than the workspace was sized for.
    CHECK_THROWS_AS(stage.launch(in.data(), out.data(), 65, workspace, stage.shape, nullptr), std::invalid_argument);
    if (stage.kind != RowKind::kernel) continue;
    LaunchShape odd_threads = stage.shape;
    odd_threads.threads = 96;
    CHECK_THROWS_AS(stage.launch(in.data(), out.data(), 64, workspace, odd_threads, nullptr), std::invalid_argument);
    if (stage.shape.blocks_per_sm == 0) continue;
    const LaunchShape too_few_per_sm = {256, 0, 1};
    CHECK_THROWS_AS(stage.launch(in.data(), out.data(), 64, workspace, too_few_per_sm, nullptr), std::invalid_argument);
  }
  for (const ReduceStage<float>& stage : {vectorized<float>(), large_blocks<float>(), single_pass<float>()}) {
    CAPTURE(stage.name);
    CHECK_THROWS_AS(stage.launch(in.data() + 1, out.data(), 32, workspace, stage.shape, nullptr),
                    std::invalid_argument);
  }
  check_no_stray_writes();
}
