/// @file gpu_checks.hpp
/// What every GPU test checks after a stage ran: its output against the reference, and that
/// nothing was written outside any device buffer (the guard zones of device_buffer.hpp).
#pragma once

#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "host/check.hpp"
#include "host/device_buffer.hpp"
#include "host/types.hpp"

namespace stepwise::testing {

/// What a series of checked runs came to: how many ran and how many failed a check (a build
/// exercise's grader prints it, tests/support/build_exercise.hpp).
struct Tally {
  std::size_t runs = 0;
  std::size_t failed = 0;
  /// Counts one run, a failed one unless @p passed.
  void add(bool passed) {
    ++runs;
    if (!passed) ++failed;
  }
  /// Counts the runs of @p other.
  void add(const Tally& other) {
    runs += other.runs;
    failed += other.failed;
  }
};

/// Fails the current test case when a kernel wrote outside a device buffer, and re-arms the guards.
/// @return whether every guard zone was intact
inline bool check_no_stray_writes() {
  const Check guards = check_guard_zones();
  CHECK_MESSAGE(guards.passed, guards.detail);
  return guards.passed;
}

/// One checked run of a stage: poisons @p problem's output, runs
/// `problem.launch(launch_args...)`, waits for it, then checks the output against the
/// reference and the guard zones. The caller CAPTUREs what names the run.
/// @return whether the output and the guard zones passed (a grader's Tally counts it)
template <class Problem, class... LaunchArgs>
bool check_run(Problem& problem, LaunchArgs&&... launch_args) {
  problem.poison_output();
  problem.launch(std::forward<LaunchArgs>(launch_args)...);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  const Check check = problem.check_output();
  CHECK_MESSAGE(check.passed, check.detail);
  const bool clean = check_no_stray_writes();
  return check.passed && clean;
}

/// One checked run of an element-wise stage, `launch(in, out, n, shape, stream)`: copies @p input
/// to the device, poisons the output, runs the stage, waits for it, and checks every element
/// against @p expected (the first wrong index is named) and the guard zones. The caller CAPTUREs
/// what names the run.
/// @return whether the output and the guard zones passed
template <class Launch, class T>
bool check_elementwise(Launch launch, const std::vector<T>& input, const std::vector<T>& expected,
                       const LaunchShape& shape) {
  DeviceBuffer<T> in(input);
  DeviceBuffer<T> out(input.size());
  poison(out);
  launch(in.data(), out.data(), input.size(), shape, nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<T> result = out.download();
  const std::size_t wrong =
      static_cast<std::size_t>(std::mismatch(result.begin(), result.end(), expected.begin()).first - result.begin());
  CHECK_MESSAGE(wrong == input.size(), "first wrong element at index ", wrong);
  const bool clean = check_no_stray_writes();
  return wrong == input.size() && clean;
}

}  // namespace stepwise::testing
