// GPU tests of chapter 01: every row of the table x {int32, float32}, at the sizes where
// tail and pass bugs live with its default shape, and at every shape its --sweep tries for
// a few sizes. Random data with negative values and fresh seeds, the output poisoned before
// every run, nothing written outside any device buffer. int32 sums (mod 2^32) must be
// bit-exact; float sums within the chapter's tolerance of a double reference. A new stage
// is tested with no edit here.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "host/check.hpp"
#include "host/data.hpp"
#include "host/device.hpp"
#include "host/device_buffer.hpp"
#include "gpu_checks.hpp"
#include "reduce_reference.hpp"
#include "reduction.hpp"

using namespace stepwise;
using namespace stepwise::reduction;

namespace {

const std::size_t kSizes[] = {
    1, 2, 3, 31, 32, 33, 127, 128, 129, 1023, 1024, 1025, (1u << 16) + 1, (1u << 20) - 1, 1u << 22, (1u << 24) + 7};
/// Sizes for the sweep shapes: one element, a partial warp, a partial block, and enough for
/// several grid-stride iterations at the smallest grids.
const std::size_t kSweepSizes[] = {1, 33, 1025, (1u << 22) + 5};

/// One input on the device with its reference, shared by every stage and shape.
template <class T>
struct Input {
  std::size_t n;
  std::uint64_t seed;
  std::vector<T> host;
  Reference<T> want;
  DeviceBuffer<T> device;
  ReduceWorkspace<T> workspace;

  Input(std::size_t count, std::uint64_t seed_value)
      : n(count),
        seed(seed_value),
        host(random_input<T>(count, seed_value)),
        want(reference_sum(host)),
        device(host),
        workspace(count) {}
};

/// Runs @p stage at @p shape once on a poisoned output, checks that nothing was written
/// outside a device buffer, and returns the sum.
template <class T>
T run_once(const ReduceStage<T>& stage, Input<T>& input, DeviceBuffer<T>& out, const LaunchShape& shape) {
  poison(out);
  stage.launch(input.device.data(), out.data(), input.n, input.workspace, shape, nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  const T sum = out.download()[0];
  testing::check_no_stray_writes();
  return sum;
}

/// Checks @p got as the harness does: bit-exact for uint32, within the tolerance for float.
template <class T>
void check_result(T got, const Input<T>& input) {
  const Check check = check_sum(std::vector<T>{got}, input.want, float_sum_tolerance(input.n, current_sm_count()));
  CHECK_MESSAGE(check.passed, check.detail);
}

}  // namespace

TEST_CASE_TEMPLATE("every row sums correctly at every edge size with its default shape", T, std::uint32_t, float) {
  DeviceBuffer<T> out(1);
  for (std::size_t n : kSizes) {
    Input<T> input(n, fresh_seed());
    CAPTURE(n);
    CAPTURE(input.seed);
    for (const ReduceStage<T>& stage : reduce_stages<T>()) {
      CAPTURE(stage.name);
      check_result(run_once(stage, input, out, stage.shape), input);
    }
  }
}

TEST_CASE_TEMPLATE("every stage sums correctly at every shape its sweep tries", T, std::uint32_t, float) {
  DeviceBuffer<T> out(1);
  for (std::size_t n : kSweepSizes) {
    Input<T> input(n, fresh_seed());
    CAPTURE(n);
    CAPTURE(input.seed);
    for (const ReduceStage<T>& stage : reduce_stages<T>()) {
      CAPTURE(stage.name);
      for (const LaunchShape& shape : stage.sweep) {
        CAPTURE(describe(shape));
        check_result(run_once(stage, input, out, shape), input);
      }
    }
  }
}

TEST_CASE_TEMPLATE("repeated runs on one workspace give the same bits (single-pass counter reset)", T, std::uint32_t,
                   float) {
  Input<T> input((1u << 22) + 3, fresh_seed());
  CAPTURE(input.seed);
  DeviceBuffer<T> out(1);
  for (const ReduceStage<T>& stage : reduce_stages<T>()) {
    CAPTURE(stage.name);
    std::vector<LaunchShape> shapes = stage.sweep;
    shapes.push_back(stage.shape);
    for (const LaunchShape& shape : shapes) {
      CAPTURE(describe(shape));
      const T first = run_once(stage, input, out, shape);
      check_result(first, input);
      for (int repeat = 0; repeat < 2; ++repeat) {
        const T again = run_once(stage, input, out, shape);
        // Every stage of ours sums in a fixed order: float results are reproducible too.
        if (stage.kind == RowKind::kernel) CHECK(again == first);
        check_result(again, input);
      }
    }
  }
}

TEST_CASE_TEMPLATE("n = 0 gives the identity, 0, at every shape", T, std::uint32_t, float) {
  Input<T> input(0, 1);
  DeviceBuffer<T> out(1);
  for (const ReduceStage<T>& stage : reduce_stages<T>()) {
    CAPTURE(stage.name);
    std::vector<LaunchShape> shapes = stage.sweep;
    shapes.push_back(stage.shape);
    for (const LaunchShape& shape : shapes) {
      CAPTURE(describe(shape));
      CHECK(run_once(stage, input, out, shape) == T(0));
    }
  }
}

TEST_CASE("int32 beyond 2^32 elements: 64-bit indices in every stage") {
  // 2^32 + 5 int32 (17 GB): a constant pattern filled on the device plus markers at the
  // edges of 2^31 and 2^32, so a truncated index drops or double-counts a marker.
  const std::size_t n = (std::size_t{1} << 32) + 5;
  if (free_device_bytes() < n * sizeof(std::uint32_t) * 11 / 10 + (std::size_t{1} << 28)) {
    MESSAGE("stepwise-skip: not enough device memory for 2^32 + 5 elements");
    return;
  }
  DeviceBuffer<std::uint32_t> in(n);
  STEPWISE_CUDA_CHECK(cudaMemset(in.data(), 0x5B, n * sizeof(std::uint32_t)));
  const std::uint32_t fill = 0x5B5B5B5Bu;
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const std::vector<std::size_t> positions = {
      0, (std::size_t{1} << 31) - 1, std::size_t{1} << 31, (std::size_t{1} << 32) - 1, std::size_t{1} << 32, n - 1};
  const std::vector<std::int32_t> markers = random_ints(positions.size(), seed, -1000000000, 1000000000);
  std::uint32_t want = static_cast<std::uint32_t>(static_cast<std::uint64_t>(n - positions.size()) * fill);
  for (std::size_t k = 0; k < positions.size(); ++k) {
    const std::uint32_t value = static_cast<std::uint32_t>(markers[k]);
    STEPWISE_CUDA_CHECK(cudaMemcpy(in.data() + positions[k], &value, sizeof value, cudaMemcpyHostToDevice));
    want += value;
  }
  ReduceWorkspace<std::uint32_t> workspace(n);
  DeviceBuffer<std::uint32_t> out(1);
  for (const ReduceStage<std::uint32_t>& stage : reduce_stages<std::uint32_t>()) {
    CAPTURE(stage.name);
    poison(out);
    stage.launch(in.data(), out.data(), n, workspace, stage.shape, nullptr);
    STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    CHECK(out.download()[0] == want);
    testing::check_no_stray_writes();
  }
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
  testing::check_no_stray_writes();
}
