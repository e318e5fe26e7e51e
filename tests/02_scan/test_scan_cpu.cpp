// CPU tests of chapter 02: the operators and reference scans, the float error bound, the
// workspace layout, and the bank-conflict analysis against the slides' numbers.
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
#include "scan_ops.hpp"
#include "scan_reference.hpp"
#include "scan_stages.hpp"

using namespace stepwise;
using namespace stepwise::scan;

namespace {

std::uint32_t apply(const Affine& map, std::uint32_t x) { return map.a * x + map.b; }

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

TEST_CASE("sequential scan works in place and for n = 0 and 1") {
  std::vector<std::int32_t> values = {3, -1, 4, -1, 5};
  sequential_scan<WrappingAdd>(values.data(), values.data(), values.size(), ScanKind::inclusive);
  CHECK(values == std::vector<std::int32_t>{3, 2, 6, 5, 10});
  std::vector<std::int32_t> one = {42};
  sequential_scan<WrappingAdd>(one.data(), one.data(), 1, ScanKind::exclusive);
  CHECK(one.front() == 0);
  sequential_scan<WrappingAdd>(nullptr, nullptr, 0, ScanKind::exclusive);  // touches nothing
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
  const auto a = random_ints(100, fresh_seed(), 1, 1 << 30);
  const auto b = random_ints(100, fresh_seed(), -(1 << 30), 1 << 30);
  std::vector<Affine> maps(a.size());
  for (std::size_t i = 0; i < maps.size(); ++i)
    maps[i] = {static_cast<std::uint32_t>(a[i]) | 1u, static_cast<std::uint32_t>(b[i])};
  std::vector<Affine> prefixes(maps.size());
  sequential_scan<ComposeAffine>(maps.data(), prefixes.data(), maps.size(), ScanKind::inclusive);
  std::uint32_t x = 987654321u;
  const std::uint32_t start = x;
  for (std::size_t i = 0; i < maps.size(); ++i) {
    x = apply(maps[i], x);
    CHECK(apply(prefixes[i], start) == x);
  }
}

TEST_CASE("float reference and error bound") {
  const std::vector<float> input = {0.5f, -0.25f, 1.0f, -2.0f};
  CHECK(float_reference(input, ScanKind::inclusive) == std::vector<double>{0.5, 0.25, 1.25, -0.75});
  CHECK(float_reference(input, ScanKind::exclusive) == std::vector<double>{0.0, 0.5, 0.25, 1.25});
  const std::vector<double> scale = float_error_scale(input);
  CHECK(scale[0] == doctest::Approx(64.0 * 0.5));
  CHECK(scale[3] == doctest::Approx(64.0 * 3.75));
  CHECK(float_chain_depth(256 * 1000) == doctest::Approx(64.0 + 1000.0));
  CHECK(kFloatTolerance == doctest::Approx(2.0 / 16777216.0));
}

TEST_CASE("workspace layout: statuses for the smallest tile, separate arrays aligned and disjoint") {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{895}, std::size_t{897}, std::size_t{1} << 28}) {
    const std::size_t tiles = (n + kMinSinglePassItems - 1) / kMinSinglePassItems;
    for (std::size_t element_bytes : {std::size_t{4}, std::size_t{8}}) {
      CAPTURE(n);
      CAPTURE(element_bytes);
      const SinglePassLayout layout = single_pass_layout(tiles, element_bytes);
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
      for (int lane = 0; lane < 32; ++lane) banks.insert(bank_of((warp * 32 + lane) * 7 + step));
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

TEST_CASE("the sweep compiles NT in {128, 256} x VT in {7, 8, 11, 12, 15, 16, 23, 24, 31, 32}, speculative or not") {
  const std::vector<TileShape> shapes = single_pass_sweep_shapes();
  CHECK(shapes.size() == 40);
  int ticket_first = 0;
  for (const TileShape& shape : shapes) ticket_first += shape.speculative ? 0 : 1;
  CHECK(ticket_first == 20);
  bool has_default = false;
  for (const TileShape& shape : shapes) {
    CHECK(shape.items() >= kMinSinglePassItems);
    has_default = has_default || (shape.nt == kSinglePassShape.nt && shape.vt == kSinglePassShape.vt);
  }
  CHECK(has_default);
}
