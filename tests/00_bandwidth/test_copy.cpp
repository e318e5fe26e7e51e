// GPU tests of chapter 00: every copy stage at the sizes where off-by-one and tail
// bugs live, outputs poisoned first, exact comparison.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "copy_stages.hpp"
#include "data.hpp"
#include "device_buffer.hpp"

using namespace stepwise;
using namespace stepwise::bandwidth;

namespace {

using CopyLauncher = void (*)(const std::int32_t*, std::int32_t*, std::size_t, const CopyConfig&, cudaStream_t);

struct NamedLauncher {
  const char* name;
  CopyLauncher launch;
};

const NamedLauncher kLaunchers[] = {
    {"one-per-thread", copy_one_per_thread}, {"grid-stride", copy_grid_stride},
    {"warp-sequences", copy_warp_sequences}, {"vector-int2", copy_vector2},
    {"vector-int4", copy_vector4},           {"int4-unrolled", copy_vector4_unrolled},
    {"int4-tiles", copy_vector4_tiles},
};

const std::size_t kSizes[] = {1, 2, 3, 31, 32, 33, 1023, 1024, 1025, (1u << 20) + 3, (1u << 24) + 1};

void check_copy(const NamedLauncher& launcher, std::size_t n, const CopyConfig& config) {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(launcher.name);
  CAPTURE(n);
  CAPTURE(seed);
  const std::vector<std::int32_t> input =
      random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
  DeviceBuffer<std::int32_t> in(input);
  DeviceBuffer<std::int32_t> out(n);
  poison(out);
  launcher.launch(in.data(), out.data(), n, config, nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<std::int32_t> result = out.download();
  const std::size_t wrong =
      static_cast<std::size_t>(std::mismatch(result.begin(), result.end(), input.begin()).first - result.begin());
  CHECK_MESSAGE(wrong == n, "first wrong element at index ", wrong);
}

}  // namespace

TEST_CASE("every copy stage copies exactly, at every edge size") {
  for (const NamedLauncher& launcher : kLaunchers)
    for (std::size_t n : kSizes) check_copy(launcher, n, CopyConfig{});
}

TEST_CASE("copy stages are correct with small and large blocks, few blocks, short sequences") {
  const CopyConfig shapes[] = {{32, 1, 32, 1}, {1024, 1, 32 * 1024, 8}, {128, 3, 96, 2}};
  for (const NamedLauncher& launcher : kLaunchers)
    for (const CopyConfig& config : shapes)
      for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{100003}}) check_copy(launcher, n, config);
}

TEST_CASE("the tile stage is exact for every vectors-per-thread width at tile edges") {
  const NamedLauncher tiles{"int4-tiles", copy_vector4_tiles};
  for (int vectors : {1, 2, 4, 8})
    for (int threads : {32, 256})
      for (std::size_t tile : {std::size_t{4} * threads * vectors})
        for (std::size_t n : {tile - 1, tile, tile + 1, 3 * tile + 5}) check_copy(tiles, n, {threads, 1, 32, vectors});
}

TEST_CASE("copy stages reject launch shapes they cannot run") {
  DeviceBuffer<std::int32_t> in(64);
  DeviceBuffer<std::int32_t> out(64);
  for (const NamedLauncher& launcher : kLaunchers) {
    CAPTURE(launcher.name);
    CHECK_THROWS_AS(launcher.launch(in.data(), out.data(), 64, CopyConfig{100, 1, 32}, nullptr), std::invalid_argument);
    CHECK_THROWS_AS(launcher.launch(in.data(), out.data(), 64, CopyConfig{256, 1, 40}, nullptr), std::invalid_argument);
  }
}

TEST_CASE("vector stages reject misaligned pointers instead of faulting") {
  DeviceBuffer<std::int32_t> in(64);
  DeviceBuffer<std::int32_t> out(64);
  CHECK_THROWS_AS(copy_vector4(in.data() + 1, out.data(), 32, CopyConfig{}, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(copy_vector2(in.data(), out.data() + 1, 32, CopyConfig{}, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(copy_vector4_unrolled(in.data(), out.data() + 2, 32, CopyConfig{}, nullptr), std::invalid_argument);
}
