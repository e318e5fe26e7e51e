// GPU tests of chapter 01: every stage (and CUB) x {int32, float32} x the sizes where
// tail and pass bugs live x three launch shapes, on random data with negative values
// and fresh seeds, the output poisoned before every run. int32 sums (mod 2^32) must be
// bit-exact; float sums within the chapter's stated tolerance of a double reference.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "data.hpp"
#include "device_buffer.hpp"
#include "reduce_reference.hpp"
#include "reduce_stages.hpp"

using namespace stepwise;
using namespace stepwise::reduction;

namespace {

const std::size_t kSizes[] = {
    1, 2, 3, 31, 32, 33, 127, 128, 129, 1023, 1024, 1025, (1u << 16) + 1, (1u << 20) - 1, 1u << 22, (1u << 24) + 7};

/// Three launch shapes: the smallest block with the fewest threads per SM (longest
/// per-thread chains, most grid-stride iterations), the default, and the largest block.
std::vector<ReduceConfig> shapes() {
  ReduceConfig small = device_config(64);
  small.threads_per_sm = kMinThreadsPerSm;
  ReduceConfig large = device_config(1024);
  large.threads_per_sm = 1024;
  return {small, device_config(256), large};
}

/// One input on the device with its reference, shared by every stage and shape.
template <class T>
struct Input {
  std::size_t n;
  std::uint64_t seed;
  std::vector<T> host;
  DeviceBuffer<T> device;
  ReduceWorkspace<T> workspace;

  Input(std::size_t count, std::uint64_t seed_value)
      : n(count), seed(seed_value), host(generate(count, seed_value)), device(host), workspace(count) {}

  static std::vector<T> generate(std::size_t count, std::uint64_t seed_value) {
    if constexpr (std::is_same_v<T, float>)
      return random_floats(count, seed_value, -1.0f, 2.0f);
    else
      return as_wrapping(random_ints(count, seed_value, std::numeric_limits<std::int32_t>::min(),
                                     std::numeric_limits<std::int32_t>::max()));
  }
};

/// Runs @p stage once on a poisoned output and returns the result.
template <class T>
T run_once(const ReduceStage<T>& stage, Input<T>& input, DeviceBuffer<T>& out, const ReduceConfig& config) {
  poison(out);
  stage.launch(input.device.data(), input.n, out.data(), input.workspace, config, nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  return out.download()[0];
}

/// Checks @p got against the reference of @p input: bit-exact for uint32, within the
/// chapter's tolerance for float.
template <class T>
void check_sum(T got, const Input<T>& input, int sm_count) {
  if constexpr (std::is_same_v<T, float>) {
    const FloatSum want = float_sum(input.host);
    const double bound = float_sum_tolerance(input.n, sm_count) * want.abs_sum;
    CHECK_MESSAGE(std::fabs(static_cast<double>(got) - want.sum) <= bound, "got ", got, ", want ", want.sum, " within ",
                  bound);
  } else {
    CHECK(got == wrapping_sum(input.host));
  }
}

template <class T>
void check_every_stage_at_every_size() {
  const std::vector<ReduceConfig> configs = shapes();
  DeviceBuffer<T> out(1);
  for (std::size_t n : kSizes) {
    Input<T> input(n, fresh_seed());
    CAPTURE(n);
    CAPTURE(input.seed);
    for (const ReduceStage<T>& stage : reduce_stages<T>()) {
      CAPTURE(stage.name);
      for (const ReduceConfig& config : configs) {
        CAPTURE(config.block);
        CAPTURE(config.threads_per_sm);
        check_sum(run_once(stage, input, out, config), input, config.sm_count);
      }
    }
  }
}

}  // namespace

TEST_CASE("int32: every stage and CUB sum exactly (mod 2^32) at every edge size and three block sizes") {
  check_every_stage_at_every_size<std::uint32_t>();
}

TEST_CASE("float32: every stage and CUB sum within tolerance at every edge size and three block sizes") {
  check_every_stage_at_every_size<float>();
}

TEST_CASE_TEMPLATE("repeated runs on one workspace give the same bits (single-pass counter reset)", T, std::uint32_t,
                   float) {
  Input<T> input((1u << 22) + 3, fresh_seed());
  CAPTURE(input.seed);
  DeviceBuffer<T> out(1);
  for (const ReduceConfig& config : shapes()) {
    for (const ReduceStage<T>& stage : reduce_stages<T>()) {
      CAPTURE(stage.name);
      CAPTURE(config.block);
      const T first = run_once(stage, input, out, config);
      check_sum(first, input, config.sm_count);
      for (int repeat = 0; repeat < 3; ++repeat) {
        const T again = run_once(stage, input, out, config);
        // Every stage of ours sums in a fixed order: float results are reproducible too.
        if (stage.number != 0) CHECK(again == first);
        check_sum(again, input, config.sm_count);
      }
    }
  }
}

TEST_CASE_TEMPLATE("n = 0 gives the identity, 0", T, std::uint32_t, float) {
  Input<T> input(0, 1);
  DeviceBuffer<T> out(1);
  for (const ReduceStage<T>& stage : reduce_stages<T>()) {
    CAPTURE(stage.name);
    CHECK(run_once(stage, input, out, device_config(256)) == T(0));
  }
}

TEST_CASE("int32 beyond 2^32 elements: 64-bit indices in every stage") {
  // 2^32 + 5 int32 (17 GB): a constant pattern filled on the device plus markers at the
  // edges of 2^31 and 2^32, so a truncated index drops or double-counts a marker.
  const std::size_t n = (std::size_t{1} << 32) + 5;
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  STEPWISE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < n * sizeof(std::uint32_t) * 11 / 10 + (std::size_t{1} << 28)) {
    MESSAGE("skipped: not enough device memory for 2^32 + 5 elements");
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
    stage.launch(in.data(), n, out.data(), workspace, device_config(256), nullptr);
    STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    CHECK(out.download()[0] == want);
  }
}

TEST_CASE("launchers reject launch shapes and inputs they cannot run") {
  DeviceBuffer<float> in(64);
  DeviceBuffer<float> out(1);
  ReduceWorkspace<float> workspace(64);
  ReduceConfig config = device_config(256);
  for (const ReduceStage<float>& stage : reduce_stages<float>()) {
    CAPTURE(stage.name);
    ReduceConfig bad_block = config;
    bad_block.block = 96;
    CHECK_THROWS_AS(stage.launch(in.data(), 64, out.data(), workspace, bad_block, nullptr), std::invalid_argument);
    ReduceConfig bad_occupancy = config;
    bad_occupancy.threads_per_sm = 256;
    CHECK_THROWS_AS(stage.launch(in.data(), 64, out.data(), workspace, bad_occupancy, nullptr), std::invalid_argument);
    // More elements than the workspace was sized for.
    CHECK_THROWS_AS(stage.launch(in.data(), 65, out.data(), workspace, config, nullptr), std::invalid_argument);
  }
  CHECK_THROWS_AS(reduce_vectorized(in.data() + 1, 32, out.data(), workspace, config, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(reduce_single_pass(in.data() + 2, 32, out.data(), workspace, config, nullptr), std::invalid_argument);
}
