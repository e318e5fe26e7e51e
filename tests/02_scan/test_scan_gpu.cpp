// GPU tests of chapter 02: every stage x exclusive/inclusive x {int32, float32, affine
// composition} at the sizes where tile and block boundaries live, outputs poisoned first;
// in-place scans; every --sweep shape; the single-pass stage repeated to catch look-back
// races; CUB as the chapter calls it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "data.hpp"
#include "device_buffer.hpp"
#include "scan_reference.hpp"
#include "scan_stages.hpp"
#include "verify.hpp"

using namespace stepwise;
using namespace stepwise::scan;

namespace {

constexpr ScanKind kKinds[] = {ScanKind::exclusive, ScanKind::inclusive};

const char* to_string(ScanKind kind) { return kind == ScanKind::exclusive ? "exclusive" : "inclusive"; }

template <class Op>
std::vector<typename Op::value_type> make_input(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<Op, WrappingAdd>) {
    return random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
  } else if constexpr (std::is_same_v<Op, FloatAdd>) {
    return random_floats(n, seed, -1.0f, 1.0f);
  } else {
    // Odd multipliers are units mod 2^32: products never collapse to 0, so every prefix
    // stays sensitive to the order of all the maps before it.
    const auto a =
        random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
    const auto b = random_ints(n, seed ^ 0x5DEECE66Dull, std::numeric_limits<std::int32_t>::min(),
                               std::numeric_limits<std::int32_t>::max());
    std::vector<Affine> maps(n);
    for (std::size_t i = 0; i < n; ++i)
      maps[i] = {static_cast<std::uint32_t>(a[i]) | 1u, static_cast<std::uint32_t>(b[i])};
    return maps;
  }
}

/// One input with its references (both kinds), built once and checked against many stages.
template <class Op>
struct ScanCase {
  using T = typename Op::value_type;
  using Reference = std::conditional_t<std::is_same_v<T, float>, double, T>;
  std::uint64_t seed;
  std::vector<T> input;
  std::vector<Reference> exclusive;
  std::vector<Reference> inclusive;
  std::vector<double> scale;  // float only

  ScanCase(std::size_t n, std::uint64_t seed_) : seed(seed_), input(make_input<Op>(n, seed_)) {
    if constexpr (std::is_same_v<T, float>) {
      exclusive = float_reference(input, ScanKind::exclusive);
      inclusive = float_reference(input, ScanKind::inclusive);
      scale = float_error_scale(input);
    } else {
      exclusive.resize(n);
      inclusive.resize(n);
      sequential_scan<Op>(input.data(), exclusive.data(), n, ScanKind::exclusive);
      sequential_scan<Op>(input.data(), inclusive.data(), n, ScanKind::inclusive);
    }
  }

  Check check(const std::vector<T>& got, ScanKind kind) const {
    const auto& want = kind == ScanKind::exclusive ? exclusive : inclusive;
    if constexpr (std::is_same_v<T, float>)
      return compare_within(got, want, scale, kFloatTolerance);
    else
      return compare_exact(got, want);
  }
};

/// n in {1, 2, 31, 32, 33}, NV-1, NV, NV+1 and 3*NV+5 for the block or tile size NV of
/// every stage, 2^20+1 and 2^24+3.
std::vector<std::size_t> edge_sizes() {
  std::set<std::size_t> sizes = {1, 2, 31, 32, 33, (std::size_t{1} << 20) + 1, (std::size_t{1} << 24) + 3};
  const std::size_t tiles[] = {256, 512, static_cast<std::size_t>(kEvenShape.items()),
                               static_cast<std::size_t>(kOddShape.items()),
                               static_cast<std::size_t>(kSinglePassShape.items())};
  for (std::size_t nv : tiles) sizes.insert({nv - 1, nv, nv + 1, 3 * nv + 5});
  return {sizes.begin(), sizes.end()};
}

/// Runs @p launch on a poisoned output and checks it; in place when @p in_place.
template <class Op, class Launch>
void run_and_check(const ScanCase<Op>& scan_case, ScanKind kind, const std::string& what, Launch launch,
                   bool in_place = false) {
  using T = typename Op::value_type;
  const std::size_t n = scan_case.input.size();
  DeviceBuffer<T> in(scan_case.input);
  DeviceBuffer<T> out(n);
  poison(out);
  ScanWorkspace workspace(n, sizeof(T));
  launch(in.data(), in_place ? in.data() : out.data(), n, kind, workspace);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  const Check check = scan_case.check(in_place ? in.download() : out.download(), kind);
  CHECK_MESSAGE(check.passed, what, " ", to_string(kind), " n=", n, " seed=", scan_case.seed, ": ", check.detail);
}

/// Every stage, both kinds, every edge size: one input per size, reused by all stages.
template <class Op>
void check_every_stage_at_every_size() {
  using T = typename Op::value_type;
  for (std::size_t n : edge_sizes()) {
    const ScanCase<Op> scan_case(n, fresh_seed());
    DeviceBuffer<T> in(scan_case.input);
    DeviceBuffer<T> out(n);
    ScanWorkspace workspace(n, sizeof(T));
    for (const ScanAlgorithm<Op>& algorithm : scan_algorithms<Op>()) {
      for (ScanKind kind : kKinds) {
        poison(out);
        algorithm.launch(in.data(), out.data(), n, kind, workspace, nullptr);
        STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
        const Check check = scan_case.check(out.download(), kind);
        CHECK_MESSAGE(check.passed, algorithm.number, " ", algorithm.name, " ", to_string(kind), " n=", n,
                      " seed=", scan_case.seed, ": ", check.detail);
      }
    }
  }
}

}  // namespace

TEST_CASE("every stage scans int32 (wrapping) exactly at every edge size") {
  check_every_stage_at_every_size<WrappingAdd>();
}

TEST_CASE("every stage scans float32 within the rounding bound at every edge size") {
  check_every_stage_at_every_size<FloatAdd>();
}

TEST_CASE("every stage keeps operand order: affine composition (non-commutative) exactly") {
  check_every_stage_at_every_size<ComposeAffine>();
}

TEST_CASE("n = 0: every stage returns without writing anything") {
  DeviceBuffer<std::int32_t> in(1);
  DeviceBuffer<std::int32_t> out(1);
  poison(out);
  ScanWorkspace workspace(0, sizeof(std::int32_t));
  for (const auto& algorithm : scan_algorithms<WrappingAdd>())
    for (ScanKind kind : kKinds) algorithm.launch(in.data(), out.data(), 0, kind, workspace, nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  std::int32_t untouched;
  std::memset(&untouched, poison_byte<std::int32_t>(), sizeof untouched);
  CHECK(out.download().front() == untouched);
}

TEST_CASE("every stage scans in place (in == out)") {
  for (std::size_t n : {std::size_t{33}, std::size_t{3 * 896 + 5}, (std::size_t{1} << 20) + 1}) {
    const ScanCase<WrappingAdd> ints(n, fresh_seed());
    const ScanCase<ComposeAffine> maps(n, fresh_seed());
    for (ScanKind kind : kKinds) {
      for (const auto& algorithm : scan_algorithms<WrappingAdd>())
        run_and_check(
            ints, kind, algorithm.name,
            [&](auto in, auto out, std::size_t count, ScanKind k, ScanWorkspace& w) {
              algorithm.launch(in, out, count, k, w, nullptr);
            },
            true);
      for (const auto& algorithm : scan_algorithms<ComposeAffine>())
        run_and_check(
            maps, kind, algorithm.name,
            [&](auto in, auto out, std::size_t count, ScanKind k, ScanWorkspace& w) {
              algorithm.launch(in, out, count, k, w, nullptr);
            },
            true);
    }
  }
}

TEST_CASE("every compiled single-pass tile shape scans correctly at its tile edges") {
  for (const TileShape shape : single_pass_sweep_shapes()) {
    const std::size_t nv = static_cast<std::size_t>(shape.items());
    for (std::size_t n : {nv - 1, nv, nv + 1, 3 * nv + 5, (std::size_t{1} << 20) + 1}) {
      const ScanCase<WrappingAdd> ints(n, fresh_seed());
      const ScanCase<FloatAdd> floats(n, fresh_seed());
      const std::string what = "single-pass " + std::to_string(shape.nt) + "x" + std::to_string(shape.vt) +
                               (shape.speculative ? " speculative" : " ticket-first");
      for (ScanKind kind : kKinds) {
        run_and_check(ints, kind, what, [&](auto in, auto out, std::size_t count, ScanKind k, ScanWorkspace& w) {
          scan_single_pass_shaped<WrappingAdd>(shape, in, out, count, k, w, nullptr);
        });
        run_and_check(floats, kind, what, [&](auto in, auto out, std::size_t count, ScanKind k, ScanWorkspace& w) {
          scan_single_pass_shaped<FloatAdd>(shape, in, out, count, k, w, nullptr);
        });
      }
    }
  }
}

// Thousands of tiles, scanned 50 times each: any hole in the look-back protocol (a flag
// seen before its value, a stale ticket or status, a wrong window) shows up as a wrong
// element in some run. int32 exercises the packed status word, affine maps the separate
// flag with release/acquire.
TEST_CASE("single pass survives 50 repetitions with thousands of tiles (look-back races)") {
  constexpr int kRepetitions = 50;
  const std::size_t n = (std::size_t{1} << 23) + 7;  // 2115 tiles of 128x31 (the default), 9363 of 128x7
  const ScanCase<WrappingAdd> ints(n, fresh_seed());
  const ScanCase<ComposeAffine> maps(n, fresh_seed());
  DeviceBuffer<std::int32_t> int_in(ints.input);
  DeviceBuffer<std::int32_t> int_out(n);
  DeviceBuffer<Affine> map_in(maps.input);
  DeviceBuffer<Affine> map_out(n);
  ScanWorkspace workspace(n, sizeof(Affine));
  int failures = 0;
  for (int repetition = 0; repetition < kRepetitions; ++repetition) {
    const ScanKind kind = kKinds[repetition % 2];
    poison(int_out);
    scan_single_pass<WrappingAdd>(int_in.data(), int_out.data(), n, kind, workspace, nullptr);
    STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    const Check int_check = ints.check(int_out.download(), kind);
    poison(int_out);
    scan_single_pass_shaped<WrappingAdd>(TileShape{128, 7}, int_in.data(), int_out.data(), n, kind, workspace, nullptr);
    STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    const Check small_tile_check = ints.check(int_out.download(), kind);
    // Every block guesses the wrong tile, so every block takes the reload path.
    poison(int_out);
    scan_single_pass_shaped<WrappingAdd>(TileShape{128, 31, 0, true, 1}, int_in.data(), int_out.data(), n, kind,
                                         workspace, nullptr);
    STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    const Check wrong_guess_check = ints.check(int_out.download(), kind);
    poison(int_out);
    scan_single_pass_shaped<WrappingAdd>(TileShape{128, 31, 0, false}, int_in.data(), int_out.data(), n, kind,
                                         workspace, nullptr);
    STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    const Check ticket_first_check = ints.check(int_out.download(), kind);
    poison(map_out);
    scan_single_pass<ComposeAffine>(map_in.data(), map_out.data(), n, kind, workspace, nullptr);
    STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    const Check map_check = maps.check(map_out.download(), kind);
    if (!int_check.passed || !small_tile_check.passed || !wrong_guess_check.passed || !ticket_first_check.passed ||
        !map_check.passed)
      ++failures;
    CHECK_MESSAGE(wrong_guess_check.passed, "int32 wrong guesses repetition ", repetition, ": ",
                  wrong_guess_check.detail);
    CHECK_MESSAGE(ticket_first_check.passed, "int32 ticket first repetition ", repetition, ": ",
                  ticket_first_check.detail);
    CHECK_MESSAGE(int_check.passed, "int32 repetition ", repetition, ": ", int_check.detail);
    CHECK_MESSAGE(small_tile_check.passed, "int32 128x7 repetition ", repetition, ": ", small_tile_check.detail);
    CHECK_MESSAGE(map_check.passed, "affine repetition ", repetition, ": ", map_check.detail);
  }
  CHECK(failures == 0);
}

TEST_CASE("the CUB baseline scans int32 and float32 as the chapter calls it") {
  for (std::size_t n : {std::size_t{1}, std::size_t{1000003}}) {
    const ScanCase<WrappingAdd> ints(n, fresh_seed());
    const ScanCase<FloatAdd> floats(n, fresh_seed());
    for (ScanKind kind : kKinds) {
      DeviceBuffer<unsigned char> temp(std::max<std::size_t>(1, cub_scan_temp_bytes<WrappingAdd>(n, kind)));
      run_and_check(ints, kind, "cub", [&](auto in, auto out, std::size_t count, ScanKind k, ScanWorkspace&) {
        cub_scan<WrappingAdd>(in, out, count, k, temp.data(), temp.size(), nullptr);
      });
      DeviceBuffer<unsigned char> float_temp(std::max<std::size_t>(1, cub_scan_temp_bytes<FloatAdd>(n, kind)));
      run_and_check(floats, kind, "cub", [&](auto in, auto out, std::size_t count, ScanKind k, ScanWorkspace&) {
        cub_scan<FloatAdd>(in, out, count, k, float_temp.data(), float_temp.size(), nullptr);
      });
    }
  }
}

TEST_CASE("launchers refuse a workspace sized for a smaller n, and shapes that are not compiled") {
  DeviceBuffer<std::int32_t> in(5000);
  DeviceBuffer<std::int32_t> out(5000);
  ScanWorkspace small(100, sizeof(std::int32_t));
  for (const auto& algorithm : scan_algorithms<WrappingAdd>()) {
    CAPTURE(algorithm.name);
    CHECK_THROWS_AS(algorithm.launch(in.data(), out.data(), 5000, ScanKind::exclusive, small, nullptr),
                    std::invalid_argument);
  }
  ScanWorkspace enough(5000, sizeof(std::int32_t));
  CHECK_THROWS_AS(scan_single_pass_shaped<WrappingAdd>(TileShape{128, 9}, in.data(), out.data(), 5000,
                                                       ScanKind::exclusive, enough, nullptr),
                  std::invalid_argument);
}
