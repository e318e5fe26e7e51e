// CPU tests of chapter 02: the operators and reference scans, the per-thread reduce and scan
// the kernels run (with the non-commutative operator), the float error bound, the workspace
// layout, the stage table, and the bank-conflict analysis against the slides' numbers.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "bank_conflicts.hpp"
#include "data.hpp"
#include "lookback.hpp"
#include "scan.hpp"
#include "scan_ops.hpp"
#include "scan_reference.hpp"
#include "thread_ops.hpp"

using namespace stepwise;
using namespace stepwise::scan;

namespace {

std::uint32_t apply(const Affine& map, std::uint32_t x) { return map.a * x + map.b; }

constexpr ScanKind kKinds[] = {ScanKind::exclusive, ScanKind::inclusive};

/// thread_reduce and thread_scan of common/thread_ops.hpp on VT maps from @p maps, against
/// sequential_scan: the reduction is the last inclusive prefix, the scan seeded with the
/// identity is the sequential scan, and seeded with a prefix p it is p composed with it.
template <int VT>
void check_thread_ops(const std::vector<Affine>& maps, const Affine& seed_prefix) {
  CAPTURE(VT);
  const ComposeAffine op;
  Affine x[VT];
  for (int i = 0; i < VT; ++i) x[i] = maps[i];
  std::vector<Affine> inclusive(VT);
  sequential_scan<ComposeAffine>(maps.data(), inclusive.data(), VT, ScanKind::inclusive);
  CHECK(thread_reduce<VT>(x, op) == inclusive.back());
  for (ScanKind kind : kKinds) {
    std::vector<Affine> want(VT);
    sequential_scan<ComposeAffine>(maps.data(), want.data(), VT, kind);
    for (const Affine prefix : {ComposeAffine::identity(), seed_prefix}) {
      Affine scanned[VT];
      for (int i = 0; i < VT; ++i) scanned[i] = maps[i];
      thread_scan<VT>(scanned, prefix, kind == ScanKind::exclusive, op);
      for (int i = 0; i < VT; ++i) CHECK(scanned[i] == op(prefix, want[i]));
    }
  }
}

}  // namespace

TEST_CASE("sequential scan: exclusive and inclusive int32, wrapping past INT32_MAX") {
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  const std::vector<std::int32_t> input = {kMax, 1, -5, 7};
  std::vector<std::int32_t> out(input.size());
  sequential_scan<WrappingAdd>(input.data(), out.data(), input.size(), ScanKind::inclusive);
  CHECK(out == std::vector<std::int32_t>{kMax, kMin, kMax - 4, kMin + 2});
  sequential_scan<WrappingAdd>(input.data(), out.data(), input.size(), ScanKind::exclusive);
  CHECK(out == std::vector<std::int32_t>{0, kMax, kMin, kMax - 4});
}

TEST_CASE("sequential scan works in place, and for n = 1 and n = 0") {
  std::vector<std::int32_t> values = {3, -1, 4, -1, 5};
  sequential_scan<WrappingAdd>(values.data(), values.data(), values.size(), ScanKind::inclusive);
  CHECK(values == std::vector<std::int32_t>{3, 2, 6, 5, 10});
  std::vector<std::int32_t> one = {42};
  sequential_scan<WrappingAdd>(one.data(), one.data(), 1, ScanKind::exclusive);
  CHECK(one.front() == 0);
  const std::vector<std::int32_t> input = {7, 8};
  std::vector<std::int32_t> untouched = {-1, -2};
  for (ScanKind kind : kKinds) sequential_scan<WrappingAdd>(input.data(), untouched.data(), 0, kind);
  CHECK(untouched == std::vector<std::int32_t>{-1, -2});
}

TEST_CASE("affine composition: left is applied first; associative, not commutative, identity on both sides") {
  const ComposeAffine op;
  const Affine f{3, 5};
  const Affine g{7, 11};
  const Affine h{0xDEADBEEF, 0x12345678};
  for (std::uint32_t x : {0u, 1u, 12345u, 0xFFFFFFFFu}) {
    CHECK(apply(op(f, g), x) == apply(g, apply(f, x)));
    CHECK(apply(op(op(f, g), h), x) == apply(op(f, op(g, h)), x));
  }
  CHECK(op(op(f, g), h) == op(f, op(g, h)));
  CHECK_FALSE(op(f, g) == op(g, f));
  CHECK(op(ComposeAffine::identity(), h) == h);
  CHECK(op(h, ComposeAffine::identity()) == h);
}

TEST_CASE("an affine prefix applies the maps in sequence order") {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const std::vector<Affine> maps = scan_input<ComposeAffine>(100, seed);
  std::vector<Affine> prefixes(maps.size());
  sequential_scan<ComposeAffine>(maps.data(), prefixes.data(), maps.size(), ScanKind::inclusive);
  std::uint32_t x = 987654321u;
  const std::uint32_t start = x;
  for (std::size_t i = 0; i < maps.size(); ++i) {
    CHECK(maps[i].a % 2 == 1);
    x = apply(maps[i], x);
    CHECK(apply(prefixes[i], start) == x);
  }
}

TEST_CASE("thread_reduce and thread_scan keep operand order (affine maps, against sequential_scan)") {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const std::vector<Affine> maps = scan_input<ComposeAffine>(33, seed);
  const Affine seed_prefix = maps.back();
  check_thread_ops<1>(maps, seed_prefix);
  check_thread_ops<2>(maps, seed_prefix);
  check_thread_ops<7>(maps, seed_prefix);
  check_thread_ops<8>(maps, seed_prefix);
  check_thread_ops<31>(maps, seed_prefix);
  check_thread_ops<32>(maps, seed_prefix);
}

TEST_CASE("the CPU reference checks exactly for int32 and affine maps, within the bound for float32") {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const std::vector<std::int32_t> ints = scan_input<WrappingAdd>(1000, seed);
  const ScanReference<WrappingAdd> reference(ints, ScanKind::inclusive);
  std::vector<std::int32_t> got(ints.size());
  sequential_scan<WrappingAdd>(ints.data(), got.data(), ints.size(), ScanKind::inclusive);
  CHECK(reference.check(got).passed);
  got[500] ^= 1;
  CHECK_FALSE(reference.check(got).passed);

  const std::vector<float> floats = scan_input<FloatAdd>(1000, seed);
  ScanReference<FloatAdd> float_reference(floats, ScanKind::exclusive);
  std::vector<float> float_got(floats.size());
  sequential_scan<FloatAdd>(floats.data(), float_got.data(), floats.size(), ScanKind::exclusive);
  CHECK(float_reference.check(float_got).passed);  // at this size even the sequential order stays within the bound
  float_got[999] += 1.0f;
  CHECK_FALSE(float_reference.check(float_got).passed);
  float_reference.rescan(floats);
  float_got[999] = std::numeric_limits<float>::quiet_NaN();  // the poison of an unwritten float
  CHECK_FALSE(float_reference.check(float_got).passed);
}

TEST_CASE("float reference and error bound") {
  const std::vector<float> input = {0.5f, -0.25f, 1.0f, -2.0f};
  CHECK(float_reference(input, ScanKind::inclusive) == std::vector<double>{0.5, 0.25, 1.25, -0.75});
  CHECK(float_reference(input, ScanKind::exclusive) == std::vector<double>{0.0, 0.5, 0.25, 1.25});
  const std::vector<double> scale = float_error_scale(input);
  CHECK(scale[0] == doctest::Approx(80.0 * 0.5));
  CHECK(scale[3] == doctest::Approx(80.0 * 3.75));
  CHECK(float_chain_depth(128 * 1000) == doctest::Approx(80.0 + 1000.0));
  CHECK(kFloatTolerance == doctest::Approx(2.0 / 16777216.0));
  // The deepest chain of any stage (scan_reference.hpp): 77 within a tile of stage 6 at
  // 256 x 32, and 7 adds per earlier tile of at least 896 items.
  for (std::size_t i : {std::size_t{0}, std::size_t{895}, std::size_t{896}, std::size_t{8191}, std::size_t{1} << 30}) {
    CAPTURE(i);
    CHECK(float_chain_depth(i) >= 77.0 + 7.0 * static_cast<double>(i / 896));
  }
}

TEST_CASE("workspace layout: statuses for the smallest tile, separate arrays aligned and disjoint") {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{895}, std::size_t{897}, std::size_t{1} << 28}) {
    const std::size_t tiles = (n + kMinSinglePassItems - 1) / kMinSinglePassItems;
    for (std::size_t element_bytes : {std::size_t{4}, std::size_t{8}}) {
      CAPTURE(n);
      CAPTURE(element_bytes);
      const LookbackLayout layout = lookback_layout(tiles, element_bytes);
      CHECK(scan_workspace_bytes(n, element_bytes) >= layout.total_bytes);
      CHECK(scan_workspace_bytes(n, element_bytes) >= kMaxReduceBlocks * element_bytes);
      CHECK(layout.status_offset >= sizeof(unsigned));
      if (element_bytes == 4) {
        CHECK(layout.clear_bytes == layout.status_offset + tiles * 8);
      } else {
        CHECK(layout.aggregates_offset >= layout.clear_bytes);
        CHECK(layout.aggregates_offset % 256 == 0);
        CHECK(layout.inclusives_offset >= layout.aggregates_offset + tiles * element_bytes);
        CHECK(layout.inclusives_offset % 256 == 0);
      }
    }
  }
  // Stage 1's recursion: totals of 2^28 / 256 blocks, then / 256 again, ...
  CHECK(scan_workspace_bytes(std::size_t{1} << 28, 4) >= ((1u << 20) + (1u << 12) + 16) * 4);
}

TEST_CASE("the table: stages 1-6 in order, CUB for the sums only, shapes within the workspace's limits") {
  const std::vector<std::string> names = {"hillis-steele", "blelloch",    "rts-vt8",
                                          "rts-vt7",       "rts-shuffle", "single-pass"};
  const auto check_kernels = [&](const auto& stages) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      CAPTURE(i);
      CHECK(stages[i].name == names[i]);
      CHECK(stages[i].number == static_cast<int>(i) + 1);
      CHECK(stages[i].kind == RowKind::kernel);
      const bool has_launcher = stages[i].launch != nullptr;
      CHECK(has_launcher);
      if (i != 5) CHECK(stages[i].sweep.empty());  // stages 1-5: their shape is their lesson
    }
  };
  check_kernels(scan_stages<WrappingAdd>());
  check_kernels(scan_stages<FloatAdd>());
  check_kernels(scan_stages<ComposeAffine>());
  CHECK(scan_stages<WrappingAdd>().size() == 7);
  CHECK(scan_stages<WrappingAdd>().back().kind == RowKind::library);
  CHECK(scan_stages<WrappingAdd>().back().number == 0);
  CHECK(scan_stages<FloatAdd>().back().name == "cub");
  CHECK(scan_stages<ComposeAffine>().size() == 6);  // no library scans affine maps

  const ScanStage<WrappingAdd> six = single_pass<WrappingAdd>();
  CHECK(six.shape == LaunchShape{128, 31});
  CHECK(six.sweep == shape_grid({128, 256}, {7, 8, 11, 12, 15, 16, 23, 24, 31, 32}));
  for (const LaunchShape& shape : six.sweep) CHECK(shape.threads * shape.items >= kMinSinglePassItems);
  CHECK(single_pass<FloatAdd>().sweep == six.sweep);
  CHECK(single_pass<ComposeAffine>().sweep.empty());
}

TEST_CASE("set_tile gives stage 6 a compiled tile, and refuses one that is not compiled") {
  std::vector<ScanStage<WrappingAdd>> stages = scan_stages<WrappingAdd>();
  set_tile(stages, LaunchShape{256, 7});
  CHECK(stages[5].shape == LaunchShape{256, 7});
  for (std::size_t i = 0; i < stages.size(); ++i)
    if (i != 5) CHECK(stages[i].shape == scan_stages<WrappingAdd>()[i].shape);
  CHECK_THROWS_AS(set_tile(stages, LaunchShape{128, 9}), std::invalid_argument);
  CHECK_THROWS_AS(set_tile(stages, LaunchShape{64, 7}), std::invalid_argument);
  std::vector<ScanStage<ComposeAffine>> maps = scan_stages<ComposeAffine>();
  CHECK_THROWS_AS(set_tile(maps, LaunchShape{128, 31}), std::invalid_argument);  // no sweep: nothing to set
}

// The slides' table: VT = 8 is 8-way, VT = 7 hits every bank once per warp per step.
static_assert(transpose_conflict_degree(128, 8) == 8, "VT = 8: 8-way conflicts");
static_assert(transpose_conflict_degree(128, 7) == 1, "VT = 7: conflict-free");

TEST_CASE("bank conflicts of the transpose: VT = 8 is 8-way, VT = 7 conflict-free (the slides' numbers)") {
  for (int nt : {128, 256}) {
    CAPTURE(nt);
    CHECK(transpose_conflict_degree(nt, 8) == 8);
    CHECK(transpose_conflict_degree(nt, 7) == 1);
    CHECK(transpose_wavefronts_per_warp(nt, 8) == 64);
    CHECK(transpose_wavefronts_per_warp(nt, 7) == 7);
    CHECK(strided_conflict_degree(nt, 8) == 1);
    CHECK(strided_conflict_degree(nt, 7) == 1);
  }
  // Every bank exactly once per warp per step for VT = 7.
  for (int warp = 0; warp < 4; ++warp)
    for (int step = 0; step < 7; ++step) {
      std::set<int> banks;
      for (int lane = 0; lane < 32; ++lane)
        banks.insert(tile::bank_of(tile::thread_order_slot(warp * 32 + lane, step, 7)));
      CHECK(banks.size() == 32);
    }
}

TEST_CASE("bank conflicts: the degree is gcd(VT, 32) for every VT, odd VT always conflict-free") {
  for (int vt = 1; vt <= 32; ++vt) {
    CAPTURE(vt);
    CHECK(transpose_conflict_degree(128, vt) == std::gcd(vt, 32));
    CHECK(transpose_wavefronts_per_warp(128, vt) == vt * std::gcd(vt, 32));
    if (vt % 2 == 1) CHECK(transpose_conflict_degree(256, vt) == 1);
  }
  CHECK(transpose_conflict_degree(256, 12) == 4);
  CHECK(transpose_conflict_degree(256, 16) == 16);
}

TEST_CASE("bank conflicts: a warp's slice starts on bank 0, so the warp-striped transpose reads the same banks") {
  for (int vt : {7, 8, 31, 32})
    for (int warp = 0; warp < 8; ++warp)
      for (int lane = 0; lane < 32; ++lane) {
        const int whole_tile = tile::thread_order_slot(warp * 32 + lane, 3 % vt, vt);
        const int in_slice = tile::warp_slice_begin(warp, vt) + tile::thread_order_slot(lane, 3 % vt, vt);
        CHECK(whole_tile == in_slice);
        CHECK(tile::bank_of(tile::warp_slice_begin(warp, vt)) == 0);
      }
}

TEST_CASE("the --analyze table shows VT = 8 and VT = 7 side by side, and rejects bad shapes") {
  const std::string table = bank_conflict_table(128, {8, 7});
  CHECK(table.find("VT =  8: 8-way conflicts, 64 wavefronts") != std::string::npos);
  CHECK(table.find("VT =  7: conflict-free, 7 wavefronts") != std::string::npos);
  CHECK(table.find("| VT=8  | VT=7") != std::string::npos);
  CHECK_THROWS_AS(bank_conflict_table(100, {8}), std::invalid_argument);
  CHECK_THROWS_AS(bank_conflict_table(128, {}), std::invalid_argument);
  CHECK_THROWS_AS(bank_conflict_table(128, {0}), std::invalid_argument);
  CHECK_THROWS_AS(bank_conflict_table(2048, {7}), std::invalid_argument);
}
