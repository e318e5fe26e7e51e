// CPU tests of chapter 02: the operators and reference scans, the per-thread reduce and scan
// the kernels run (with the non-commutative operator), the float error bound, the workspace
// layout, the stage table, the bank model against the slides' numbers and against the
// README's Nsight Compute counters, Blelloch's tree, the look-back replay, and --analyze's
// JSON document.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithm/lookback.hpp"
#include "bank_conflicts.hpp"
#include "device/thread_ops.hpp"
#include "host/data.hpp"
#include "lookback_replay.hpp"
#include "scan.hpp"
#include "scan_ops.hpp"
#include "scan_reference.hpp"

using namespace stepwise;
using namespace stepwise::scan;

namespace {

std::uint32_t apply(const Affine& map, std::uint32_t x) { return map.a * x + map.b; }

constexpr ScanKind kKinds[] = {ScanKind::exclusive, ScanKind::inclusive};

/// thread_reduce and thread_scan of common/device/thread_ops.hpp on VT maps from @p maps, against
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

TEST_CASE("affine composition: left is applied first, associative, not commutative, identity on both sides") {
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
  // The deepest chain of any stage (scan_reference.hpp): 77 within a tile of stage 7 at
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
      const LookbackLayout paired = packed_lookback_layout(tiles, 16);  // PairedFlaggedStatus: 16-byte words
      CHECK(paired.status_offset % 16 == 0);
      CHECK(paired.clear_bytes == paired.status_offset + tiles * 16);
      CHECK(paired.total_bytes == paired.clear_bytes);
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

TEST_CASE("the table: stages 1-7 in order, CUB for the sums only, shapes within the workspace's limits") {
  const std::vector<std::string> names = {"hillis-steele", "blelloch",    "blelloch-padded", "rts-vt8",
                                          "rts-vt7",       "rts-shuffle", "single-pass"};
  const auto check_kernels = [&](const auto& stages) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      CAPTURE(i);
      CHECK(stages[i].name == names[i]);
      CHECK(stages[i].number == static_cast<int>(i) + 1);
      CHECK(stages[i].kind == RowKind::kernel);
      const bool has_launcher = stages[i].launch != nullptr;
      CHECK(has_launcher);
      if (i != 6) CHECK(stages[i].sweep.empty());  // stages 1-6: their shape is their lesson
    }
  };
  check_kernels(scan_stages<WrappingAdd>());
  check_kernels(scan_stages<FloatAdd>());
  check_kernels(scan_stages<ComposeAffine>());
  CHECK(scan_stages<WrappingAdd>().size() == 8);
  CHECK(scan_stages<WrappingAdd>().back().kind == RowKind::library);
  CHECK(scan_stages<WrappingAdd>().back().number == 0);
  CHECK(scan_stages<FloatAdd>().back().name == "cub");
  CHECK(scan_stages<ComposeAffine>().size() == 7);                                    // no library scans affine maps
  CHECK(scan_stages<WrappingAdd>()[1].shape == scan_stages<WrappingAdd>()[2].shape);  // 2 and 3: the same tree

  const ScanStage<WrappingAdd> seven = single_pass<WrappingAdd>();
  CHECK(seven.shape == LaunchShape{128, 28});
  // Every NT x VT of the lists whose tile fits 48 KB of static shared memory: 512 threads up to VT = 23.
  std::vector<LaunchShape> want = shape_grid({128, 256}, {7, 8, 11, 12, 15, 16, 20, 23, 24, 28, 31, 32});
  const std::vector<LaunchShape> wide = shape_grid({512}, {7, 8, 11, 12, 15, 16, 20, 23});
  want.insert(want.begin() + 24, wide.begin(), wide.end());
  CHECK(seven.sweep == want);
  CHECK(seven.sweep.size() == 32);
  for (const LaunchShape& shape : seven.sweep) {
    CHECK(shape.threads * shape.items >= kMinSinglePassItems);
    CHECK(shape.threads * shape.items * 4 + 1024 <= 48 * 1024);
  }
  CHECK(single_pass<FloatAdd>().sweep == seven.sweep);
  CHECK(single_pass<ComposeAffine>().sweep.empty());
}

TEST_CASE("set_tile gives the single pass a compiled tile, and refuses one that is not compiled") {
  std::vector<ScanStage<WrappingAdd>> stages = scan_stages<WrappingAdd>();
  set_tile(stages, LaunchShape{256, 7});
  CHECK(stages[6].shape == LaunchShape{256, 7});
  set_tile(stages, LaunchShape{512, 23});
  CHECK(stages[6].shape == LaunchShape{512, 23});
  for (std::size_t i = 0; i < stages.size(); ++i)
    if (i != 6) CHECK(stages[i].shape == scan_stages<WrappingAdd>()[i].shape);
  CHECK_THROWS_AS(set_tile(stages, LaunchShape{128, 9}), std::invalid_argument);
  CHECK_THROWS_AS(set_tile(stages, LaunchShape{64, 7}), std::invalid_argument);
  CHECK_THROWS_AS(set_tile(stages, LaunchShape{512, 24}), std::invalid_argument);  // 48 KB of items: does not fit
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

// With 128-bit accesses a phase is a quarter-warp: VT = 8 is 2-way, 16 4-way, 24 2-way, 32 8-way.
static_assert(transpose_cost(128, 8, 4).degree == 2, "VT = 8 with LDS.128: 2-way");
static_assert(transpose_cost(128, 12, 4).degree == 1, "VT = 12 with LDS.128: conflict-free");
static_assert(transpose_cost(128, 32, 4).degree == 8, "VT = 32 with LDS.128: 8-way");

TEST_CASE("bank model, wider accesses: the degree is gcd(VT, 32) / w for w-word accesses, w lanes' words per phase") {
  for (int vt = 1; vt <= 32; ++vt)
    for (int width : {1, 2, 4}) {
      if (vt % width != 0) continue;
      CAPTURE(vt);
      CAPTURE(width);
      const TransposeCost cost = transpose_cost(128, vt, width);
      CHECK(cost.degree == std::max(1, std::gcd(vt, 32) / width));
      CHECK(cost.instructions == vt / width);
      CHECK(cost.ideal == vt);  // every word once: w wavefronts per instruction
      CHECK(cost.wavefronts == (vt / width) * width * cost.degree);
    }
  CHECK(aligned_access_words(8) == 4);
  CHECK(aligned_access_words(12) == 4);
  CHECK(aligned_access_words(6) == 2);
  CHECK(aligned_access_words(7) == 1);
  CHECK(lanes_per_phase(1) == 32);
  CHECK(lanes_per_phase(2) == 16);
  CHECK(lanes_per_phase(4) == 8);
  // Odd VT with 32-bit words, and an odd number of 128-bit vectors (VT = 12, 20, 28): conflict-free.
  for (int vt : {12, 20, 28}) CHECK(transpose_cost(256, vt, 4).degree == 1);
  // 64-bit accesses at VT = 2 mod 4: gcd(VT, 32) = 2, so conflict-free.
  for (int vt : {2, 6, 10, 14, 18, 22, 26, 30}) CHECK(transpose_cost(128, vt, 2).degree == 1);
}

TEST_CASE("bank model: one warp access, phase by phase") {
  int words[32] = {};
  for (int lane = 0; lane < 32; ++lane) words[lane] = lane * 8;  // VT = 8, step 0
  AccessCost scalar = warp_access_cost(words, 1);
  CHECK(scalar.degree == 8);
  CHECK(scalar.wavefronts == 8);
  CHECK(scalar.ideal == 1);
  AccessCost vector = warp_access_cost(words, 4);
  CHECK(vector.degree == 2);  // lanes l and l + 4 of each quarter-warp: banks 0-3, 8-11, 16-19, 24-27
  CHECK(vector.wavefronts == 8);
  CHECK(vector.ideal == 4);
  CHECK(bank_load(words, 4, kAllLanes, 0, 0) == 2);
  CHECK(bank_load(words, 1, kAllLanes, 0, 0) == 8);
  for (int lane = 0; lane < 32; ++lane) words[lane] = 7;  // every lane reads one word: a broadcast
  CHECK(warp_access_cost(words, 1).wavefronts == 1);
  CHECK(warp_access_cost(words, 1, 0u).wavefronts == 0);          // no active lane: no access
  for (int lane = 0; lane < 32; ++lane) words[lane] = lane * 32;  // one bank, 32 words
  CHECK(warp_access_cost(words, 1).degree == 32);
  CHECK(warp_access_cost(words, 1, 0x0000ffffu).degree == 16);  // half the lanes active
}

namespace {

/// Shared-memory load wavefronts of one warp in LadderBlockScan<128>::exclusive_scan (scan.cuh),
/// replayed with the bank model: per step, every lane reads buffers[current][t], the lanes with
/// t >= offset read buffers[current][t - offset]; at the end every lane reads the aggregate
/// buffers[current][NT - 1] (a broadcast) and lanes t >= 1 read buffers[current][t - 1].
int ladder_load_wavefronts(int nt, int warp) {
  int total = 0;
  int current = 0;
  int own[32] = {};
  int left[32] = {};
  for (int offset = 1; offset < nt; offset *= 2) {
    unsigned reading = 0;
    for (int lane = 0; lane < 32; ++lane) {
      const int t = warp * 32 + lane;
      own[lane] = current * nt + t;
      left[lane] = current * nt + t - offset;
      if (t >= offset) reading |= 1u << lane;
    }
    total += warp_access_cost(own, 1).wavefronts + warp_access_cost(left, 1, reading).wavefronts;
    current ^= 1;
  }
  unsigned after_first = 0;
  for (int lane = 0; lane < 32; ++lane) {
    const int t = warp * 32 + lane;
    own[lane] = current * nt + nt - 1;
    left[lane] = current * nt + t - 1;
    if (t >= 1) after_first |= 1u << lane;
  }
  return total + warp_access_cost(own, 1).wavefronts + warp_access_cost(left, 1, after_first).wavefronts;
}

}  // namespace

// The README's Nsight Compute counters (NVIDIA H100, 2026-11-23; n = 16Mi int32, first launch of
// each kernel of the reduce-then-scan stages, 128 x 8 and 128 x 7 tiles; the compiler reads and writes the
// thread-order side of VT = 8 with LDS.128 / STS.128, VT = 7 with LDS / STS).
TEST_CASE("bank model against the README's counters: 2-way 128-bit accesses, not 8-way 32-bit ones") {
  constexpr long long n = 1LL << 24;
  const long long tiles_vt8 = n / (128 * 8);                  // 16,384
  const long long tiles_vt7 = (n + 128 * 7 - 1) / (128 * 7);  // 18,725
  // scan_tiles, st conflicts: the thread-order stores of VT = 8. Measured: 524,288.
  CHECK(tiles_vt8 * transpose_conflicts_per_tile(128, 8, 4) == 524288);
  // The talk's model would have predicted 3,670,016: 7 extra wavefronts per step, 8 steps, 4 warps.
  CHECK(tiles_vt8 * transpose_conflicts_per_tile(128, 8, 1) == 3670016);
  // VT = 7: none (measured: 0 st, 3 ld).
  CHECK(transpose_conflicts_per_tile(128, 7, 1) == 0);
  // scan_tiles, shared-load wavefronts: per warp and tile, the thread-order read (LDS.128 or
  // LDS), the strided read of the store (VT one-wavefront LDS) and the ladder's loads.
  long long ladder = 0;
  for (int warp = 0; warp < 4; ++warp) ladder += ladder_load_wavefronts(128, warp);
  CHECK(ladder == 61);  // 15.25 per warp: warp 0 skips the two widest steps, warp 1 the widest
  const long long per_tile_vt8 = 4 * (transpose_cost(128, 8, 4).wavefronts + 8) + ladder;
  const long long per_tile_vt7 = 4 * (transpose_cost(128, 7, 1).wavefronts + 7) + ladder;
  const double measured_vt8 = 2572288.0;  // the README's table
  const double measured_vt7 = 2190833.0;
  CHECK(tiles_vt8 * per_tile_vt8 == 2572288);
  CHECK(tiles_vt7 * per_tile_vt7 == 2190825);  // the last tile is partial: it skips a few of the store's reads
  CHECK(std::abs(static_cast<double>(tiles_vt8 * per_tile_vt8) - measured_vt8) / measured_vt8 < 1e-5);
  CHECK(std::abs(static_cast<double>(tiles_vt7 * per_tile_vt7) - measured_vt7) / measured_vt7 < 1e-5);
  // With 32-bit accesses VT = 8 would have taken 5.7 M: the counter rules the 8-way model out.
  CHECK(tiles_vt8 * (4 * (transpose_cost(128, 8, 1).wavefronts + 8) + ladder) == 5718016);
}

TEST_CASE("Blelloch's tree: up to 16-way conflicts unpadded, none with one padding word per 32 nodes") {
  constexpr int nt = tree::kThreads;
  CHECK(tree_levels(nt) == 9);
  const int unpadded_degrees[18] = {2, 4, 8, 16, 16, 8, 4, 2, 1, 1, 2, 4, 8, 16, 16, 8, 4, 2};
  int wavefronts = 0;
  int padded_wavefronts = 0;
  for (int k = 0; k < 18; ++k) {
    CAPTURE(k);
    const TreeLevel plain = tree_level_in_order(nt, k, false);
    const TreeLevel padded = tree_level_in_order(nt, k, true);
    CHECK(plain.down == (k >= 9));
    CHECK(plain.stride * plain.active == nt);  // the level of stride s: nt / s threads at work
    CHECK(plain.degree == unpadded_degrees[k]);
    CHECK(padded.degree == 1);
    CHECK(padded.wavefronts == padded.ideal);
    wavefronts += plain.wavefronts;
    padded_wavefronts += padded.wavefronts;
  }
  CHECK(tree_level_in_order(nt, 0, false).stride == 1);
  CHECK(tree_level_in_order(nt, 8, false).stride == 256);
  CHECK(tree_level_in_order(nt, 9, false).stride == 256);
  CHECK(tree_level_in_order(nt, 17, false).stride == 1);
  CHECK(wavefronts == 665);
  CHECK(padded_wavefronts == 140);
  // What Nsight Compute counts per block: with 32-bit accesses, and with the stride-1 pairs as
  // the LDS.64 / STS.64 nvcc emits for the unpadded tree; padded, nothing.
  CHECK(tree_conflicts_per_block(nt, false, false).loads == 300);
  CHECK(tree_conflicts_per_block(nt, false, false).stores == 225);
  CHECK(tree_conflicts_per_block(nt, false, true).loads == 268);
  CHECK(tree_conflicts_per_block(nt, false, true).stores == 209);
  CHECK(tree_conflicts_per_block(nt, true, false).loads == 0);
  CHECK(tree_conflicts_per_block(nt, true, true).stores == 0);
  // The maps: the root of the whole tree is node 511; padding adds i / 32.
  CHECK(tree::right_child(256, 0) == 511);
  CHECK(tree::left_child(256, 0) == 255);
  CHECK(tree::node_slot(511, true) == 526);
  CHECK(tree::tree_words(512, true) == 527);
  CHECK(tree::tree_words(512, false) == 512);
  // Padded slots stay distinct, so the tree never overwrites a node with another.
  std::set<int> slots;
  for (int i = 0; i < 512; ++i) slots.insert(tree::node_slot(i, true));
  CHECK(slots.size() == 512);
}

TEST_CASE("look-back replay: the diagram's example spins once, folds a window, and stops at tile 40's prefix") {
  const LookbackReplay replay = lookback_example();
  CHECK(replay.tile == 80);
  REQUIRE(replay.windows.size() == 2);
  const LookbackWindow& first = replay.windows[0];
  CHECK(first.window_end == 80);
  REQUIRE(first.polls.size() == 2);
  for (int lane : {1, 4, 8}) CHECK(first.polls[0][static_cast<std::size_t>(lane)] == TileState::invalid);  // 78, 75, 71
  CHECK(first.polls[0][0] == TileState::aggregate);
  for (TileState state : first.polls[1]) CHECK(state == TileState::aggregate);
  CHECK(first.nearest_inclusive == -1);
  CHECK(first.folded_lanes == 32);
  CHECK(first.window_value == 32);
  CHECK(first.prefix == 32);
  const LookbackWindow& second = replay.windows[1];
  CHECK(second.window_end == 48);
  CHECK(second.polls.size() == 1);
  CHECK(second.nearest_inclusive == 7);  // tile 40
  CHECK(second.folded_lanes == 8);
  CHECK(second.window_value == 41 + 7);
  CHECK(replay.exclusive_prefix == 80);
  CHECK(state_letter(TileState::invalid) == 'X');
  CHECK(state_letter(TileState::aggregate) == 'A');
  CHECK(state_letter(TileState::inclusive) == 'P');
}

TEST_CASE("look-back replay: any mix of published statuses gives the reduction of every earlier tile") {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  const std::vector<std::int32_t> aggregates = random_ints(300, seed, -1000, 1000);
  const std::vector<std::int32_t> coins = random_ints(300, splitmix64(seed), 0, 9);
  std::vector<std::int32_t> inclusive(aggregates.size());
  sequential_scan<WrappingAdd>(aggregates.data(), inclusive.data(), aggregates.size(), ScanKind::inclusive);
  // Tile k publishes its inclusive prefix with probability 1/10 (tile 0 always does), else
  // its aggregate, after a delay of 0-2 polls.
  const StatusAt status = [&](long long tile, int poll) {
    const auto k = static_cast<std::size_t>(tile);
    if (poll < coins[k] % 3) return TileStatus{TileState::invalid, 0};
    if (k == 0 || coins[k] == 0) return TileStatus{TileState::inclusive, inclusive[k]};
    return TileStatus{TileState::aggregate, aggregates[k]};
  };
  for (long long tile : {1LL, 2LL, 31LL, 32LL, 33LL, 64LL, 65LL, 150LL, 299LL}) {
    CAPTURE(tile);
    CHECK(replay_look_back(tile, status).exclusive_prefix == inclusive[static_cast<std::size_t>(tile - 1)]);
  }
  CHECK_THROWS_AS(replay_look_back(5, [](long long, int) { return TileStatus{}; }), std::invalid_argument);
}

TEST_CASE("the --analyze table shows VT = 8 and VT = 7 side by side with both access widths, and the tree") {
  const std::string table = bank_conflict_table(128, {8, 7});
  CHECK(table.find("VT =  8: 8-way conflicts, 64 wavefronts for 8 reads") != std::string::npos);
  CHECK(table.find("VT =  7: conflict-free, 7 wavefronts for 7 reads") != std::string::npos);
  CHECK(table.find("VT =  8: 128-bit (LDS.128, 8 lanes per phase): 2-way conflicts, 16 wavefronts for 2 reads") !=
        std::string::npos);
  CHECK(table.find("VT =  7: 32-bit only") != std::string::npos);
  CHECK(table.find("VT =  8: 224 with 32-bit accesses, 32 with 128-bit") != std::string::npos);
  CHECK(table.find("| VT=8  | VT=7") != std::string::npos);
  CHECK(table.find("665 wavefronts unpadded, 140 padded") != std::string::npos);
  CHECK_THROWS_AS(bank_conflict_table(100, {8}), std::invalid_argument);
  CHECK_THROWS_AS(bank_conflict_table(128, {}), std::invalid_argument);
  CHECK_THROWS_AS(bank_conflict_table(128, {0}), std::invalid_argument);
  CHECK_THROWS_AS(bank_conflict_table(2048, {7}), std::invalid_argument);
}

TEST_CASE("the --analyze JSON document holds what the diagrams draw") {
  const nlohmann::json document = nlohmann::json::parse(analysis_json(128, {8, 7}));
  CHECK(document["analysis"] == "scan-transpose");
  CHECK(document["nt"] == 128);
  const nlohmann::json& vt8 = document["transposes"][0];
  CHECK(vt8["vt"] == 8);
  CHECK(vt8["aligned_bits"] == 128);
  REQUIRE(vt8["accesses"].size() == 2);
  const nlohmann::json& scalar = vt8["accesses"][0];
  CHECK(scalar["bits"] == 32);
  CHECK(scalar["degree"] == 8);
  CHECK(scalar["instructions"] == 8);
  CHECK(scalar["banks"].size() == 8);
  CHECK(scalar["banks"][0][4] == 0);  // lane 4 is back in bank 0
  CHECK(scalar["banks"][3][1] == 11);
  CHECK(scalar["ways"][0][0] == 8);
  const nlohmann::json& vector = vt8["accesses"][1];
  CHECK(vector["bits"] == 128);
  CHECK(vector["lanes_per_phase"] == 8);
  CHECK(vector["degree"] == 2);
  CHECK(vector["banks"].size() == 2);
  CHECK(vector["banks"][1][1] == 12);  // lane 1 reads words 12-15 with its second LDS.128
  CHECK(vector["ways"][0][0] == 2);
  CHECK(vector["conflicts_per_tile"] == 32);
  const nlohmann::json& vt7 = document["transposes"][1];
  CHECK(vt7["accesses"].size() == 1);
  CHECK(vt7["accesses"][0]["degree"] == 1);
  for (const auto& row : vt7["accesses"][0]["ways"])
    for (const auto& way : row) CHECK(way == 1);
  const nlohmann::json& example = document["example_tile"];
  CHECK(example["nt"] == 8);
  CHECK(example["vt"] == 8);
  CHECK(example["strided"][1][2] == 17);       // thread 1, step 2: item 2 * 8 + 1
  CHECK(example["thread_order"][1][2] == 10);  // thread 1, step 2: item 1 * 8 + 2
  CHECK(document["tree"]["levels"].size() == 18);
  CHECK(document["tree"]["levels"][3]["degree"] == 16);
  CHECK(document["tree"]["padded_wavefronts"] == 140);
  CHECK(document["tree"]["barriers"] == 19);
  const nlohmann::json& lookback = document["lookback"];
  CHECK(lookback["tile"] == 80);
  CHECK(lookback["exclusive_prefix"] == 80);
  CHECK(lookback["inclusive_prefix"] == 81);
  CHECK(lookback["windows"].size() == 2);
  CHECK(lookback["windows"][0]["polls"][0][1] == "X");
  CHECK(lookback["windows"][0]["tiles"][0] == 79);
  CHECK(lookback["windows"][0]["nearest_inclusive"].is_null());
  CHECK(lookback["windows"][1]["nearest_inclusive"] == 7);
  CHECK_THROWS_AS(analysis_json(128, {33}), std::invalid_argument);
}
