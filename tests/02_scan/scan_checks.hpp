/// @file scan_checks.hpp
/// The GPU checks of chapter 02's stages, which test_scan_gpu.cpp runs on every row of the table
/// (for every operator: int32, float32, affine maps) and the grader of exercise 02-4 on the
/// student's stage: both scan kinds, at the sizes where block and tile boundaries live (derived
/// from the shapes of the chapter's rows), outputs poisoned first and nothing written outside any
/// buffer; n = 0; in place; every shape a stage's --sweep lists, at its tile edges, with and
/// without the speculative load; 32-bit and explicit 128-bit transposes. Each check takes a list
/// of stages, so that one input serves them all, and returns its Tally of runs.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "host/device_buffer.hpp"
#include "scan.hpp"
#include "scan_reference.hpp"

namespace stepwise::testing {

/// Both kinds, in the order every check runs them.
inline constexpr scan::ScanKind kScanKinds[] = {scan::ScanKind::exclusive, scan::ScanKind::inclusive};

/// The kind's name, for the failure messages.
inline const char* kind_name(scan::ScanKind kind) {
  return kind == scan::ScanKind::exclusive ? "exclusive" : "inclusive";
}

/// The options of a run of @p kind, with or without stage 7's speculative load.
inline scan::ScanOptions options_of(scan::ScanKind kind, bool speculative = false) {
  scan::ScanOptions options;
  options.kind = kind;
  options.speculative = speculative;
  return options;
}

/// The options' switches, for the failure messages.
inline std::string switches(const scan::ScanOptions& options) {
  return std::string(options.speculative ? "speculative" : "ticket-first") +
         (options.scalar_transpose ? " scalar-transpose" : "") + (options.vector_transpose ? " vector-transpose" : "") +
         (options.first_poll_ns != 0 ? " first-poll-ns " + std::to_string(options.first_poll_ns) : "") +
         (options.backoff_ns != 0 ? " backoff-ns " + std::to_string(options.backoff_ns) : "");
}

/// One input with its references (both kinds), built once and checked against many rows.
template <class Op>
struct ScanCase {
  std::uint64_t seed;
  std::vector<typename Op::value_type> input;
  scan::ScanReference<Op> exclusive;
  scan::ScanReference<Op> inclusive;

  ScanCase(std::size_t n, std::uint64_t seed_)
      : seed(seed_),
        input(scan::scan_input<Op>(n, seed)),
        exclusive(input, scan::ScanKind::exclusive),
        inclusive(input, scan::ScanKind::inclusive) {}
  /// Checks @p got against the reference of @p kind.
  Check check(const std::vector<typename Op::value_type>& got, scan::ScanKind kind) const {
    return (kind == scan::ScanKind::exclusive ? exclusive : inclusive).check(got);
  }
};

/// The device side of one ScanCase: input, output, and the workspace main would allocate.
template <class Op>
struct Buffers {
  DeviceBuffer<typename Op::value_type> in;
  DeviceBuffer<typename Op::value_type> out;
  scan::ScanWorkspace workspace;

  explicit Buffers(const ScanCase<Op>& scan_case)
      : in(scan_case.input), out(scan_case.input.size()), workspace(scan::make_workspace<Op>(scan_case.input.size())) {}
};

/// Runs @p stage at @p shape on a poisoned output (in place: on a fresh copy of the input in
/// `in`, which it then restores), checks the output and that nothing was written outside
/// any buffer.
/// @return whether the output and the guard zones passed
template <class Op>
bool check_row(const scan::ScanStage<Op>& stage, const LaunchShape& shape, const scan::ScanOptions& options,
               const ScanCase<Op>& scan_case, Buffers<Op>& buffers, bool in_place = false) {
  const std::size_t n = scan_case.input.size();
  CAPTURE(stage.name);
  CAPTURE(describe(shape));
  CAPTURE(kind_name(options.kind));
  CAPTURE(switches(options));
  CAPTURE(in_place);
  CAPTURE(n);
  CAPTURE(scan_case.seed);
  DeviceBuffer<typename Op::value_type>& out = in_place ? buffers.in : buffers.out;
  if (!in_place) poison(buffers.out);
  stage.launch(buffers.in.data(), out.data(), n, options, buffers.workspace, shape, nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  const Check check = scan_case.check(out.download(), options.kind);
  CHECK_MESSAGE(check.passed, check.detail);
  const bool clean = check_no_stray_writes();
  if (in_place) buffers.in.upload(scan_case.input);
  return check.passed && clean;
}

/// The items a row's block or tile covers: threads x items (one item when the shape sets none).
inline std::size_t tile_items(const LaunchShape& shape) {
  return static_cast<std::size_t>(shape.threads) * static_cast<std::size_t>(std::max(shape.items, 1));
}

/// 1, 2, 31, 32, 33, 2^20+1, 2^24+3, and for the tile NV of every row's shape of the chapter's
/// table NV-1, NV, NV+1, the same around 2*NV (stages 2-3 hold two items per thread), and 3*NV+5.
template <class Op>
std::vector<std::size_t> scan_edge_sizes() {
  std::set<std::size_t> sizes = {1, 2, 31, 32, 33, (std::size_t{1} << 20) + 1, (std::size_t{1} << 24) + 3};
  for (const scan::ScanStage<Op>& stage : scan::scan_stages<Op>()) {
    const std::size_t nv = tile_items(stage.shape);
    if (nv != 0) sizes.insert({nv - 1, nv, nv + 1, 2 * nv - 1, 2 * nv, 2 * nv + 1, 3 * nv + 5});
  }
  return {sizes.begin(), sizes.end()};
}

/// Every stage of @p stages at its default shape, both kinds, at every size of scan_edge_sizes():
/// exact for int32 and the affine maps, within the float bound for float32.
template <class Op>
Tally check_edge_sizes(const std::vector<scan::ScanStage<Op>>& stages) {
  Tally tally;
  for (std::size_t n : scan_edge_sizes<Op>()) {
    const ScanCase<Op> scan_case(n, fresh_seed());
    Buffers<Op> buffers(scan_case);
    for (const scan::ScanStage<Op>& stage : stages)
      for (scan::ScanKind kind : kScanKinds)
        tally.add(check_row(stage, stage.shape, options_of(kind), scan_case, buffers));
  }
  return tally;
}

/// n = 0: every stage of @p stages, both kinds, returns without writing anything (the one-element
/// output keeps its poison).
template <class Op>
Tally check_empty(const std::vector<scan::ScanStage<Op>>& stages) {
  using T = typename Op::value_type;
  Tally tally;
  DeviceBuffer<T> in(1);
  DeviceBuffer<T> out(1);
  poison(out);
  scan::ScanWorkspace workspace = scan::make_workspace<Op>(0);
  for (const scan::ScanStage<Op>& stage : stages)
    for (scan::ScanKind kind : kScanKinds)
      stage.launch(in.data(), out.data(), 0, options_of(kind), workspace, stage.shape, nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned char> poisoned(sizeof(T), poison_byte<T>());
  const std::vector<T> result = out.download();
  const bool untouched = std::memcmp(result.data(), poisoned.data(), sizeof(T)) == 0;
  CHECK(untouched);
  const bool clean = check_no_stray_writes();
  tally.add(untouched && clean);
  return tally;
}

/// Every stage of @p stages in place (in == out), both kinds, at 33, 2^20 + 1 and 3 NV + 5 for the
/// tile NV of every row of the chapter's table.
template <class Op>
Tally check_in_place(const std::vector<scan::ScanStage<Op>>& stages) {
  Tally tally;
  std::set<std::size_t> sizes = {33, (std::size_t{1} << 20) + 1};
  for (const scan::ScanStage<Op>& stage : scan::scan_stages<Op>())
    if (tile_items(stage.shape) != 0) sizes.insert(3 * tile_items(stage.shape) + 5);
  for (std::size_t n : sizes) {
    const ScanCase<Op> scan_case(n, fresh_seed());
    Buffers<Op> buffers(scan_case);
    for (const scan::ScanStage<Op>& stage : stages)
      for (scan::ScanKind kind : kScanKinds)
        tally.add(check_row(stage, stage.shape, options_of(kind), scan_case, buffers, true));
  }
  return tally;
}

/// Every shape of each stage's --sweep (a register tile without a sweep: its own shape), at its
/// tile edges and 2^20 + 1, both kinds, speculative and ticket first. A check with no shape at all
/// fails.
template <class Op>
Tally check_sweep_shapes(const std::vector<scan::ScanStage<Op>>& stages) {
  Tally tally;
  std::size_t shapes_checked = 0;
  for (const scan::ScanStage<Op>& stage : stages) {
    // The affine maps compile stage 7's default tile alone: no sweep, but its look-back paths still need checking.
    std::vector<LaunchShape> shapes = stage.sweep;
    if (shapes.empty() && stage.shape.items > 0) shapes.push_back(stage.shape);
    for (const LaunchShape& shape : shapes) {
      ++shapes_checked;
      const std::size_t nv = tile_items(shape);
      for (std::size_t n : {nv - 1, nv, nv + 1, 3 * nv + 5, (std::size_t{1} << 20) + 1}) {
        const ScanCase<Op> scan_case(n, fresh_seed());
        Buffers<Op> buffers(scan_case);
        for (scan::ScanKind kind : kScanKinds)
          for (bool speculative : {true, false})
            tally.add(check_row(stage, shape, options_of(kind, speculative), scan_case, buffers));
      }
    }
  }
  CHECK(shapes_checked > 0);
  if (shapes_checked == 0) tally.add(false);
  return tally;
}

/// Every stage of @p stages with 32-bit transposes (--scalar-transpose), both kinds, at 1, 33,
/// 2^20 + 1 and the tile edges of every register-tiled row of the chapter's table.
template <class Op>
Tally check_scalar_transpose(const std::vector<scan::ScanStage<Op>>& stages) {
  Tally tally;
  std::set<std::size_t> sizes = {1, 33, (std::size_t{1} << 20) + 1};
  for (const scan::ScanStage<Op>& stage : scan::scan_stages<Op>()) {
    if (stage.shape.items == 0) continue;  // no register tile, no transpose
    const std::size_t nv = tile_items(stage.shape);
    sizes.insert({nv - 1, nv, nv + 1, 3 * nv + 5});
  }
  for (std::size_t n : sizes) {
    const ScanCase<Op> scan_case(n, fresh_seed());
    Buffers<Op> buffers(scan_case);
    for (const scan::ScanStage<Op>& stage : stages)
      for (scan::ScanKind kind : kScanKinds) {
        scan::ScanOptions options = options_of(kind);
        options.scalar_transpose = true;
        tally.add(check_row(stage, stage.shape, options, scan_case, buffers));
      }
  }
  return tally;
}

/// Every --sweep shape with VT % 4 == 0 of @p stages with explicit 128-bit transposes
/// (--vector-transpose), both kinds, out of place and in place, at its tile edges. No run for
/// stages without such a shape.
template <class Op>
Tally check_vector_transpose(const std::vector<scan::ScanStage<Op>>& stages) {
  Tally tally;
  for (const scan::ScanStage<Op>& stage : stages)
    for (const LaunchShape& shape : stage.sweep) {
      if (shape.items % 4 != 0) continue;  // --vector-transpose changes nothing there
      const std::size_t nv = tile_items(shape);
      for (std::size_t n : {nv - 1, nv + 1, 3 * nv + 5}) {
        const ScanCase<Op> scan_case(n, fresh_seed());
        Buffers<Op> buffers(scan_case);
        for (scan::ScanKind kind : kScanKinds) {
          scan::ScanOptions options = options_of(kind);
          options.vector_transpose = true;
          tally.add(check_row(stage, shape, options, scan_case, buffers));
          tally.add(check_row(stage, shape, options, scan_case, buffers, true));
        }
      }
    }
  return tally;
}

}  // namespace stepwise::testing
