// GPU tests of chapter 02: every row of the stage table for every operator (int32, float32,
// affine maps), both scan kinds, at the sizes where block and tile boundaries live (derived
// from each row's shape), outputs poisoned first and nothing written outside any buffer; in
// place; every shape a stage's --sweep lists, at its tile edges, with and without the
// speculative load, and with explicit 128-bit transposes; every row with 32-bit transposes;
// the single pass repeated to catch look-back races, also with a delayed first poll and a
// back-off. The CUB row runs as the chapter runs it: from the table, in make_workspace's
// workspace. A new stage is tested with no edit here. The checks of a stage are in
// scan_checks.hpp, which the grader of exercise 02-4 runs on the student's stage.
#include <doctest/doctest.h>

#include <cstddef>
#include <stdexcept>

#include "gpu_checks.hpp"
#include "host/data.hpp"
#include "host/device_buffer.hpp"
#include "scan.hpp"
#include "scan_checks.hpp"

using namespace stepwise;
using namespace stepwise::scan;
using namespace stepwise::testing;

TEST_CASE_TEMPLATE("every row scans exactly (int32, affine maps) or within the float bound, at every edge size", Op,
                   WrappingAdd, FloatAdd, ComposeAffine) {
  CHECK(check_edge_sizes<Op>(scan_stages<Op>()).runs > 0);
}

TEST_CASE_TEMPLATE("n = 0: every row returns without writing anything", Op, WrappingAdd, FloatAdd, ComposeAffine) {
  CHECK(check_empty<Op>(scan_stages<Op>()).runs > 0);
}

TEST_CASE_TEMPLATE("every row scans in place (in == out)", Op, WrappingAdd, ComposeAffine) {
  CHECK(check_in_place<Op>(scan_stages<Op>()).runs > 0);
}

TEST_CASE_TEMPLATE(
    "every --sweep shape (a register tile without a sweep: its own) scans correctly at its tile edges, speculative "
    "and ticket first",
    Op, WrappingAdd, FloatAdd, ComposeAffine) {
  CHECK(check_sweep_shapes<Op>(scan_stages<Op>()).runs > 0);
}

TEST_CASE_TEMPLATE("every row scans with 32-bit transposes (--scalar-transpose) at its tile edges", Op, WrappingAdd,
                   FloatAdd, ComposeAffine) {
  CHECK(check_scalar_transpose<Op>(scan_stages<Op>()).runs > 0);
}

TEST_CASE_TEMPLATE("every --sweep shape with VT % 4 == 0 scans with explicit 128-bit transposes, in place too", Op,
                   WrappingAdd, FloatAdd) {
  CHECK(check_vector_transpose<Op>(scan_stages<Op>()).runs > 0);
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
    const ScanKind kind = kScanKinds[repetition % 2];
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
