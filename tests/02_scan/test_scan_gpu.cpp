// GPU tests of chapter 02: every row of the stage table for every operator (int32, float32,
// affine maps), both scan kinds, at the sizes where block and tile boundaries live (derived
// from each row's shape), outputs poisoned first and nothing written outside any buffer; in
// place; every shape a stage's --sweep lists, at its tile edges, with and without the
// speculative load, and with explicit 128-bit transposes; every row with 32-bit transposes;
// the single pass repeated to catch look-back races, also with a delayed first poll and a
// back-off. The CUB row runs as the chapter runs it: from the table, in make_workspace's
// workspace. A new stage is tested with no edit here.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "host/device_buffer.hpp"
#include "scan.hpp"
#include "scan_reference.hpp"

using namespace stepwise;
using namespace stepwise::scan;

namespace {

constexpr ScanKind kKinds[] = {ScanKind::exclusive, ScanKind::inclusive};

const char* to_string(ScanKind kind) { return kind == ScanKind::exclusive ? "exclusive" : "inclusive"; }

ScanOptions options_of(ScanKind kind, bool speculative = false) {
  ScanOptions options;
  options.kind = kind;
  options.speculative = speculative;
  return options;
}

/// The options' switches, for the failure messages.
std::string switches(const ScanOptions& options) {
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
  ScanReference<Op> exclusive;
  ScanReference<Op> inclusive;

  ScanCase(std::size_t n, std::uint64_t seed_)
      : seed(seed_),
        input(scan_input<Op>(n, seed)),
        exclusive(input, ScanKind::exclusive),
        inclusive(input, ScanKind::inclusive) {}
  Check check(const std::vector<typename Op::value_type>& got, ScanKind kind) const {
    return (kind == ScanKind::exclusive ? exclusive : inclusive).check(got);
  }
};

/// The device side of one ScanCase: input, output, and the workspace main would allocate.
template <class Op>
struct Buffers {
  DeviceBuffer<typename Op::value_type> in;
  DeviceBuffer<typename Op::value_type> out;
  ScanWorkspace workspace;

  explicit Buffers(const ScanCase<Op>& scan_case)
      : in(scan_case.input), out(scan_case.input.size()), workspace(make_workspace<Op>(scan_case.input.size())) {}
};

/// Runs @p stage at @p shape on a poisoned output (in place: on a fresh copy of the input in
/// `in`, which it then restores), checks the output and that nothing was written outside
/// any buffer.
template <class Op>
void check_row(const ScanStage<Op>& stage, const LaunchShape& shape, const ScanOptions& options,
               const ScanCase<Op>& scan_case, Buffers<Op>& buffers, bool in_place = false) {
  const std::size_t n = scan_case.input.size();
  CAPTURE(stage.name);
  CAPTURE(describe(shape));
  CAPTURE(to_string(options.kind));
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
  testing::check_no_stray_writes();
  if (in_place) buffers.in.upload(scan_case.input);
}

/// The items a row's block or tile covers: threads x items (one item when the shape sets none).
std::size_t tile_items(const LaunchShape& shape) {
  return static_cast<std::size_t>(shape.threads) * static_cast<std::size_t>(std::max(shape.items, 1));
}

/// 1, 2, 31, 32, 33, 2^20+1, 2^24+3, and for the tile NV of every row's shape NV-1, NV,
/// NV+1, the same around 2*NV (stages 2-3 hold two items per thread), and 3*NV+5.
template <class Op>
std::vector<std::size_t> edge_sizes() {
  std::set<std::size_t> sizes = {1, 2, 31, 32, 33, (std::size_t{1} << 20) + 1, (std::size_t{1} << 24) + 3};
  for (const ScanStage<Op>& stage : scan_stages<Op>()) {
    const std::size_t nv = tile_items(stage.shape);
    if (nv != 0) sizes.insert({nv - 1, nv, nv + 1, 2 * nv - 1, 2 * nv, 2 * nv + 1, 3 * nv + 5});
  }
  return {sizes.begin(), sizes.end()};
}

}  // namespace

TEST_CASE_TEMPLATE("every row scans exactly (int32, affine maps) or within the float bound, at every edge size", Op,
                   WrappingAdd, FloatAdd, ComposeAffine) {
  for (std::size_t n : edge_sizes<Op>()) {
    const ScanCase<Op> scan_case(n, fresh_seed());
    Buffers<Op> buffers(scan_case);
    for (const ScanStage<Op>& stage : scan_stages<Op>())
      for (ScanKind kind : kKinds) check_row(stage, stage.shape, options_of(kind), scan_case, buffers);
  }
}

TEST_CASE_TEMPLATE("n = 0: every row returns without writing anything", Op, WrappingAdd, FloatAdd, ComposeAffine) {
  using T = typename Op::value_type;
  DeviceBuffer<T> in(1);
  DeviceBuffer<T> out(1);
  poison(out);
  ScanWorkspace workspace = make_workspace<Op>(0);
  for (const ScanStage<Op>& stage : scan_stages<Op>())
    for (ScanKind kind : kKinds)
      stage.launch(in.data(), out.data(), 0, options_of(kind), workspace, stage.shape, nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned char> poisoned(sizeof(T), poison_byte<T>());
  const std::vector<T> result = out.download();
  CHECK(std::memcmp(result.data(), poisoned.data(), sizeof(T)) == 0);
  testing::check_no_stray_writes();
}

TEST_CASE_TEMPLATE("every row scans in place (in == out)", Op, WrappingAdd, ComposeAffine) {
  std::set<std::size_t> sizes = {33, (std::size_t{1} << 20) + 1};
  for (const ScanStage<Op>& stage : scan_stages<Op>())
    if (tile_items(stage.shape) != 0) sizes.insert(3 * tile_items(stage.shape) + 5);
  for (std::size_t n : sizes) {
    const ScanCase<Op> scan_case(n, fresh_seed());
    Buffers<Op> buffers(scan_case);
    for (const ScanStage<Op>& stage : scan_stages<Op>())
      for (ScanKind kind : kKinds) check_row(stage, stage.shape, options_of(kind), scan_case, buffers, true);
  }
}

TEST_CASE_TEMPLATE(
    "every --sweep shape (a register tile without a sweep: its own) scans correctly at its tile edges, speculative "
    "and ticket first",
    Op, WrappingAdd, FloatAdd, ComposeAffine) {
  std::size_t shapes_checked = 0;
  for (const ScanStage<Op>& stage : scan_stages<Op>()) {
    // The affine maps compile stage 7's default tile alone: no sweep, but its look-back paths still need checking.
    std::vector<LaunchShape> shapes = stage.sweep;
    if (shapes.empty() && stage.shape.items > 0) shapes.push_back(stage.shape);
    for (const LaunchShape& shape : shapes) {
      ++shapes_checked;
      const std::size_t nv = tile_items(shape);
      for (std::size_t n : {nv - 1, nv, nv + 1, 3 * nv + 5, (std::size_t{1} << 20) + 1}) {
        const ScanCase<Op> scan_case(n, fresh_seed());
        Buffers<Op> buffers(scan_case);
        for (ScanKind kind : kKinds)
          for (bool speculative : {true, false})
            check_row(stage, shape, options_of(kind, speculative), scan_case, buffers);
      }
    }
  }
  CHECK(shapes_checked > 0);
}

TEST_CASE_TEMPLATE("every row scans with 32-bit transposes (--scalar-transpose) at its tile edges", Op, WrappingAdd,
                   FloatAdd, ComposeAffine) {
  std::set<std::size_t> sizes = {1, 33, (std::size_t{1} << 20) + 1};
  for (const ScanStage<Op>& stage : scan_stages<Op>()) {
    if (stage.shape.items == 0) continue;  // no register tile, no transpose
    const std::size_t nv = tile_items(stage.shape);
    sizes.insert({nv - 1, nv, nv + 1, 3 * nv + 5});
  }
  for (std::size_t n : sizes) {
    const ScanCase<Op> scan_case(n, fresh_seed());
    Buffers<Op> buffers(scan_case);
    for (const ScanStage<Op>& stage : scan_stages<Op>())
      for (ScanKind kind : kKinds) {
        ScanOptions options = options_of(kind);
        options.scalar_transpose = true;
        check_row(stage, stage.shape, options, scan_case, buffers);
      }
  }
}

TEST_CASE_TEMPLATE("every --sweep shape with VT % 4 == 0 scans with explicit 128-bit transposes, in place too", Op,
                   WrappingAdd, FloatAdd) {
  for (const ScanStage<Op>& stage : scan_stages<Op>())
    for (const LaunchShape& shape : stage.sweep) {
      if (shape.items % 4 != 0) continue;  // --vector-transpose changes nothing there
      const std::size_t nv = tile_items(shape);
      for (std::size_t n : {nv - 1, nv + 1, 3 * nv + 5}) {
        const ScanCase<Op> scan_case(n, fresh_seed());
        Buffers<Op> buffers(scan_case);
        for (ScanKind kind : kKinds) {
          ScanOptions options = options_of(kind);
          options.vector_transpose = true;
          check_row(stage, shape, options, scan_case, buffers);
          check_row(stage, shape, options, scan_case, buffers, true);
        }
      }
    }
}

// Thousands of tiles, scanned 50 times each: any hole in the look-back protocol (a flag
// seen before its value, a stale ticket or status, a wrong window) shows up as a wrong
// element in some run. int32 exercises the packed status word, affine maps the separate
// flag with release/acquire; the int32 runs also take every block through the reload of a
// wrong guess (guess_shift = 1), through the speculative load's right guesses, through a first poll at once
// (no delay: the look-back's most contended order) and through another delay with a back-off.
TEST_CASE("single pass survives 50 repetitions with thousands of tiles (look-back races)") {
  constexpr int kRepetitions = 50;
  const std::size_t n = (std::size_t{1} << 23) + 7;  // 2341 tiles of 128x28 (the default), 9363 of 128x7
  const ScanCase<WrappingAdd> ints(n, fresh_seed());
  const ScanCase<ComposeAffine> maps(n, fresh_seed());
  Buffers<WrappingAdd> int_buffers(ints);
  Buffers<ComposeAffine> map_buffers(maps);
  const ScanStage<WrappingAdd> int_stage = single_pass<WrappingAdd>();
  const ScanStage<ComposeAffine> map_stage = single_pass<ComposeAffine>();
  for (int repetition = 0; repetition < kRepetitions; ++repetition) {
    CAPTURE(repetition);
    const ScanKind kind = kKinds[repetition % 2];
    ScanOptions wrong_guess = options_of(kind, true);
    wrong_guess.guess_shift = 1;
    ScanOptions at_once = options_of(kind);
    at_once.first_poll_ns = 0;
    ScanOptions delayed = options_of(kind);
    delayed.first_poll_ns = 1000;
    delayed.backoff_ns = 100;
    check_row(int_stage, int_stage.shape, options_of(kind), ints, int_buffers);
    check_row(int_stage, LaunchShape{128, 7}, options_of(kind), ints, int_buffers);
    check_row(int_stage, int_stage.shape, wrong_guess, ints, int_buffers);
    check_row(int_stage, int_stage.shape, options_of(kind, true), ints, int_buffers);
    check_row(int_stage, int_stage.shape, at_once, ints, int_buffers);
    check_row(int_stage, LaunchShape{128, 7}, at_once, ints, int_buffers);
    check_row(int_stage, int_stage.shape, delayed, ints, int_buffers);
    check_row(int_stage, LaunchShape{512, 23}, delayed, ints, int_buffers);
    check_row(map_stage, map_stage.shape, options_of(kind), maps, map_buffers);
    check_row(map_stage, map_stage.shape, at_once, maps, map_buffers);
  }
}

TEST_CASE_TEMPLATE("rows refuse a workspace sized for a smaller n, and kernels a shape they are not compiled for", Op,
                   WrappingAdd, FloatAdd, ComposeAffine) {
  using T = typename Op::value_type;
  DeviceBuffer<T> in(5000);
  DeviceBuffer<T> out(5000);
  ScanWorkspace small(100, sizeof(T));
  ScanWorkspace enough = make_workspace<Op>(5000);
  const ScanOptions options;
  for (const ScanStage<Op>& stage : scan_stages<Op>()) {
    CAPTURE(stage.name);
    CHECK_THROWS_AS(stage.launch(in.data(), out.data(), 5000, options, small, stage.shape, nullptr),
                    std::invalid_argument);
    if (stage.kind != RowKind::kernel) continue;
    LaunchShape other_threads = stage.shape;
    other_threads.threads += 32;
    LaunchShape other_items = stage.shape;
    other_items.items = stage.shape.items == 0 ? 1 : 0;
    CHECK_THROWS_AS(stage.launch(in.data(), out.data(), 5000, options, enough, other_threads, nullptr),
                    std::invalid_argument);
    CHECK_THROWS_AS(stage.launch(in.data(), out.data(), 5000, options, enough, other_items, nullptr),
                    std::invalid_argument);
  }
  testing::check_no_stray_writes();
}
