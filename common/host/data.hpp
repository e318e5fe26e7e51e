/// @file data.hpp
/// Seeded, deterministic input generators. Never all zeros, never all ones: data
/// that hides unwritten outputs and wrong indexing is not test data.
#pragma once

#include <cstdint>
#include <vector>

namespace stepwise {

/// One step of SplitMix64: a fast, well-mixed 64-bit hash. Element i of a generated
/// array is a function of (seed, i) alone, so every array is reproducible from its seed.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Value @p index of the independent pseudo-random sequence @p stream under @p seed: a chapter
/// draws each part of its input (keys, flags, payloads, costs) from its own stream, so that
/// changing one part's size or distribution leaves the others as they were.
constexpr std::uint64_t seeded_hash(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return splitmix64(splitmix64(seed ^ (stream * 0xD1B54A32D192ED03ull)) + index);
}

/// @p n integers drawn uniformly from [lo, hi] (inclusive), reproducible from @p seed: element i
/// depends on (seed, i) alone, so they are drawn on every host core.
std::vector<std::int32_t> random_ints(std::size_t n, std::uint64_t seed, std::int32_t lo, std::int32_t hi);

/// @p n floats drawn uniformly from [lo, hi), reproducible from @p seed (element i from (seed, i)
/// alone, drawn on every host core).
std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo, float hi);

/// A fresh seed for tests (from std::random_device), unless the environment variable
/// STEPWISE_TEST_SEED is set (a decimal integer), which reproduces a failed run.
/// @throws std::invalid_argument naming the variable when it is not a decimal integer.
std::uint64_t fresh_seed();

}  // namespace stepwise
