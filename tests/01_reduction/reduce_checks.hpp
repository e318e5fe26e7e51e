/// @file reduce_checks.hpp
/// The GPU checks of chapter 01's stages, which test_reduce.cpp runs on every row of the table and
/// the grader of exercise 01-4 on the student's stage: random data with negative values and fresh
/// seeds, the output poisoned before every run, nothing written outside any device buffer; uint32
/// sums (int32 data, mod 2^32) bit-exact, float sums within the chapter's tolerance of a double
/// reference. Each check takes a list of stages, so that one input serves them all.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpu_checks.hpp"
#include "host/check.hpp"
#include "host/data.hpp"
#include "host/device.hpp"
#include "host/device_buffer.hpp"
#include "reduce_reference.hpp"
#include "reduction.hpp"

namespace stepwise::testing {

/// The sizes where tail and pass bugs live: one element, a warp, a block of 128 and of 1024 either
/// side, and sizes that take several passes or several grid-stride iterations.
inline const std::vector<std::size_t>& reduce_edge_sizes() {
  static const std::vector<std::size_t> sizes = {
      1, 2, 3, 31, 32, 33, 127, 128, 129, 1023, 1024, 1025, (1u << 16) + 1, (1u << 20) - 1, 1u << 22, (1u << 24) + 7};
  return sizes;
}

/// Sizes for the sweep shapes: one element, a partial warp, a partial block, and enough for
/// several grid-stride iterations at the smallest grids.
inline const std::vector<std::size_t>& reduce_sweep_sizes() {
  static const std::vector<std::size_t> sizes = {1, 33, 1025, (1u << 22) + 5};
  return sizes;
}

/// One input on the device with its reference, shared by every stage and shape.
template <class T>
struct ReduceInput {
  std::size_t n;
  std::uint64_t seed;
  std::vector<T> host;
  reduction::Reference<T> want;
  DeviceBuffer<T> device;
  reduction::ReduceWorkspace<T> workspace;

  ReduceInput(std::size_t count, std::uint64_t seed_value)
      : n(count),
        seed(seed_value),
        host(reduction::random_input<T>(count, seed_value)),
        want(reduction::reference_sum(host)),
        device(host),
        workspace(count) {}
};

/// What one run of a stage gave: its sum, and whether the guard zones held.
template <class T>
struct ReduceRun {
  T sum;
  bool clean;
};

/// Runs @p stage at @p shape once on a poisoned output and checks that nothing was written outside
/// a device buffer.
template <class T>
ReduceRun<T> run_once(const reduction::ReduceStage<T>& stage, ReduceInput<T>& input, DeviceBuffer<T>& out,
                      const LaunchShape& shape) {
  poison(out);
  stage.launch(input.device.data(), out.data(), input.n, input.workspace, shape, nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  const T sum = out.download()[0];
  const bool clean = check_no_stray_writes();
  return {sum, clean};
}

/// Checks @p got as the harness does: bit-exact for uint32, within the tolerance for float.
/// @return whether it passed
template <class T>
bool check_result(T got, const ReduceInput<T>& input) {
  const Check check = reduction::check_sum(std::vector<T>{got}, input.want,
                                           reduction::float_sum_tolerance(input.n, current_sm_count()));
  CHECK_MESSAGE(check.passed, check.detail);
  return check.passed;
}

/// One checked run: the sum and the guard zones. @return whether both passed
template <class T>
bool check_run(const reduction::ReduceStage<T>& stage, ReduceInput<T>& input, DeviceBuffer<T>& out,
               const LaunchShape& shape) {
  const ReduceRun<T> run = run_once(stage, input, out, shape);
  return check_result(run.sum, input) && run.clean;
}

/// Every stage of @p stages at its default shape, at every size of reduce_edge_sizes().
template <class T>
Tally check_edge_sizes(const std::vector<reduction::ReduceStage<T>>& stages) {
  Tally tally;
  DeviceBuffer<T> out(1);
  for (std::size_t n : reduce_edge_sizes()) {
    ReduceInput<T> input(n, fresh_seed());
    CAPTURE(n);
    CAPTURE(input.seed);
    for (const reduction::ReduceStage<T>& stage : stages) {
      CAPTURE(stage.name);
      tally.add(check_run(stage, input, out, stage.shape));
    }
  }
  return tally;
}

/// Every stage of @p stages at every shape of its sweep, at every size of reduce_sweep_sizes().
template <class T>
Tally check_sweep_shapes(const std::vector<reduction::ReduceStage<T>>& stages) {
  Tally tally;
  DeviceBuffer<T> out(1);
  for (std::size_t n : reduce_sweep_sizes()) {
    ReduceInput<T> input(n, fresh_seed());
    CAPTURE(n);
    CAPTURE(input.seed);
    for (const reduction::ReduceStage<T>& stage : stages) {
      CAPTURE(stage.name);
      for (const LaunchShape& shape : stage.sweep) {
        CAPTURE(describe(shape));
        tally.add(check_run(stage, input, out, shape));
      }
    }
  }
  return tally;
}

/// Three runs of every stage of @p stages on one workspace (2^22 + 3 elements), at each shape of
/// its sweep and its default shape: each correct, and a kernel row's repeats bit-equal to its first
/// (every stage of the chapter sums in a fixed order, so float results are reproducible too; a
/// counter the single-pass stage leaves unreset shows here).
template <class T>
Tally check_repeatable(const std::vector<reduction::ReduceStage<T>>& stages) {
  Tally tally;
  ReduceInput<T> input((std::size_t{1} << 22) + 3, fresh_seed());
  CAPTURE(input.seed);
  DeviceBuffer<T> out(1);
  for (const reduction::ReduceStage<T>& stage : stages) {
    CAPTURE(stage.name);
    std::vector<LaunchShape> shapes = stage.sweep;
    shapes.push_back(stage.shape);
    for (const LaunchShape& shape : shapes) {
      CAPTURE(describe(shape));
      const ReduceRun<T> first = run_once(stage, input, out, shape);
      tally.add(check_result(first.sum, input) && first.clean);
      for (int repeat = 0; repeat < 2; ++repeat) {
        const ReduceRun<T> again = run_once(stage, input, out, shape);
        bool same = true;
        if (stage.kind == RowKind::kernel) {
          same = again.sum == first.sum;
          CHECK(again.sum == first.sum);
        }
        tally.add(check_result(again.sum, input) && again.clean && same);
      }
    }
  }
  return tally;
}

/// n = 0: every stage of @p stages writes the identity, 0, at each shape of its sweep and its
/// default shape.
template <class T>
Tally check_empty(const std::vector<reduction::ReduceStage<T>>& stages) {
  Tally tally;
  ReduceInput<T> input(0, 1);
  DeviceBuffer<T> out(1);
  for (const reduction::ReduceStage<T>& stage : stages) {
    CAPTURE(stage.name);
    std::vector<LaunchShape> shapes = stage.sweep;
    shapes.push_back(stage.shape);
    for (const LaunchShape& shape : shapes) {
      CAPTURE(describe(shape));
      const ReduceRun<T> run = run_once(stage, input, out, shape);
      CHECK(run.sum == T(0));
      tally.add(run.sum == T(0) && run.clean);
    }
  }
  return tally;
}

/// 2^32 + 5 int32 (17 GB) through every stage of @p stages at its default shape: a constant
/// pattern filled on the device plus markers at the edges of 2^31 and 2^32, so that a truncated
/// index drops or double-counts a marker. Without the device memory it logs `stepwise-skip:` and
/// runs nothing (a Tally of no run).
inline Tally check_beyond_2_32(const std::vector<reduction::ReduceStage<std::uint32_t>>& stages) {
  Tally tally;
  const std::size_t n = (std::size_t{1} << 32) + 5;
  if (free_device_bytes() < n * sizeof(std::uint32_t) * 11 / 10 + (std::size_t{1} << 28)) {
    MESSAGE("stepwise-skip: not enough device memory for 2^32 + 5 elements");
    return tally;
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
  reduction::ReduceWorkspace<std::uint32_t> workspace(n);
  DeviceBuffer<std::uint32_t> out(1);
  for (const reduction::ReduceStage<std::uint32_t>& stage : stages) {
    CAPTURE(stage.name);
    poison(out);
    stage.launch(in.data(), out.data(), n, workspace, stage.shape, nullptr);
    STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    const std::uint32_t got = out.download()[0];
    CHECK(got == want);
    const bool clean = check_no_stray_writes();
    tally.add(got == want && clean);
  }
  return tally;
}

}  // namespace stepwise::testing
