/// @file sample_sort.hpp
/// The arithmetic of the distributed sample sort (Leischner, Osipov & Sanders, "GPU sample sort",
/// 2010; here with one bucket per GPU, as in parallel sorting by regular sampling), written once
/// for the host and the device: the kernels, the CPU tests and --analyze call the same code.
///
/// G GPUs hold n keys in G contiguous parts (part_begin, part_size). Each GPU sorts its part,
/// draws s regular samples from it, and every GPU receives all G * s samples; sorted, they give
/// G - 1 splitters. Bucket d of a GPU is the run of its sorted part between splitters d - 1 and d,
/// and goes to GPU d. A sample is not the key alone but the pair (key, global position of the
/// key in the concatenation of the sorted parts), packed in one 64-bit word whose unsigned order
/// is the pairs' order: all keys are then distinct, so that equal keys are split between GPUs
/// like any others, and an input of one repeated key is balanced as well as a uniform one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "algorithm/hd.hpp"
#include "parts.hpp"

namespace stepwise::multigpu {

/// The most GPUs the chapter runs on (one host).
inline constexpr int kMaxGpus = 8;
/// The most samples a GPU draws (--samples): one block of at most 1024 threads sorts the G x s.
inline constexpr int kMaxSamples = 128;
/// Samples are (key, global position) packed in 64 bits: positions must fit 32 bits.
inline constexpr std::uint64_t kMaxSortKeys = std::uint64_t{1} << 32;

/// The position in a sorted part of @p count keys of its sample @p i of @p samples: the middle
/// of the i-th of @p samples equal slices, so that the samples are spread over the whole part.
/// Requires count >= 1 and i < samples.
STEPWISE_HD inline std::size_t sample_position(std::size_t count, int samples, int i) {
  const std::size_t twice = 2 * static_cast<std::size_t>(samples);
  return ((2 * static_cast<std::size_t>(i) + 1) * count) / twice;
}

/// The samples the partition-first sort (stage 2) draws from each unsorted part before it picks
/// its s regular ones: enough that the splitters' error is a fraction of a percent of a bucket.
inline constexpr std::size_t kLocalSamples = std::size_t{1} << 16;

/// A mixing of @p x (SplitMix64's finalizer): consecutive inputs give unrelated outputs.
STEPWISE_HD inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// The position in an unsorted part of @p count keys of its sample @p i of @p samples (samples <=
/// count): a position chosen by a hash of i inside the i-th of @p samples equal slices (stratified
/// sampling), so that the samples cover the whole part and no period of the input lines up with
/// them. Every slice holds at least one key, so the positions are distinct and in order.
STEPWISE_HD inline std::size_t stratified_position(std::size_t count, std::size_t samples, std::size_t i) {
  const std::size_t begin = i * count / samples;
  const std::size_t end = (i + 1) * count / samples;
  return begin + static_cast<std::size_t>(mix64(i) % (end - begin));
}

/// The sample slot of a GPU whose part is empty (the AllGather moves s slots from every GPU); it
/// sorts last. Only key 2^32 - 1 at position 2^32 - 1 packs to it: with n = 2^32 keys, the largest
/// (key, position) of all, and a sample is never the largest of the keys it is drawn from when
/// they number more than 2 s (sample_position: the middle of the last of s slices). With n = 2^32
/// every part holds 2^29 keys or more and stage 2 draws 2^16 of them, so no sample is taken for
/// kNoSample.
inline constexpr std::uint64_t kNoSample = ~std::uint64_t{0};

/// A sample, or a splitter: @p key above, its global position @p position (below 2^32) below.
STEPWISE_HD inline std::uint64_t pack_sample(std::uint32_t key, std::size_t position) {
  return static_cast<std::uint64_t>(key) << 32 | static_cast<std::uint64_t>(position & 0xffffffffu);
}

/// The key of a packed sample.
STEPWISE_HD inline std::uint32_t sample_key(std::uint64_t sample) { return static_cast<std::uint32_t>(sample >> 32); }

/// The global position of a packed sample.
STEPWISE_HD inline std::size_t sample_global(std::uint64_t sample) {
  return static_cast<std::size_t>(sample & 0xffffffffu);
}

/// The rank of splitter @p j (1 <= j < gpus) among @p valid sorted samples: splitter j is the
/// sample at j * valid / gpus, so that each bucket receives about valid / gpus samples' worth of
/// keys. Requires valid >= 1.
STEPWISE_HD inline std::size_t splitter_rank(int j, std::size_t valid, int gpus) {
  return static_cast<std::size_t>(j) * valid / static_cast<std::size_t>(gpus);
}

/// The rank of sample @p i among @p count samples: how many are smaller, or equal and before it.
/// The rank sort of the samples (one thread per sample) writes sample i to this rank.
STEPWISE_HD inline std::size_t sample_sorted_rank(const std::uint64_t* samples, std::size_t count, std::size_t i) {
  std::size_t rank = 0;
  for (std::size_t j = 0; j < count; ++j)
    rank += samples[j] < samples[i] || (samples[j] == samples[i] && j < i) ? 1 : 0;
  return rank;
}

/// The bucket of the key at global position @p position of the input, under the (key, position)
/// order: the number of the @p count sorted @p splitters not above (key, position). Bucket d holds
/// what lies from splitter d - 1 (included) to splitter d (excluded), as bucket_boundary cuts a
/// sorted part.
STEPWISE_HD inline int bucket_of(std::uint32_t key, std::size_t position, const std::uint64_t* splitters, int count) {
  const std::uint64_t packed = pack_sample(key, position);
  int bucket = 0;
  for (int j = 0; j < count; ++j) bucket += splitters[j] <= packed ? 1 : 0;
  return bucket;
}

/// The first position in @p keys[0, count) whose key is not below @p key (keys sorted).
STEPWISE_HD inline std::size_t lower_bound_key(const std::uint32_t* keys, std::size_t count, std::uint32_t key) {
  std::size_t first = 0;
  while (count > 0) {
    const std::size_t half = count / 2;
    if (keys[first + half] < key) {
      first += half + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  return first;
}

/// The first position in @p keys[0, count) whose key is above @p key (keys sorted).
STEPWISE_HD inline std::size_t upper_bound_key(const std::uint32_t* keys, std::size_t count, std::uint32_t key) {
  std::size_t first = 0;
  while (count > 0) {
    const std::size_t half = count / 2;
    if (!(key < keys[first + half])) {
      first += half + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  return first;
}

/// How many keys of a sorted part (@p keys[0, count), the first at global position @p global_first)
/// sort before @p splitter under the (key, global position) order: the keys below the splitter's
/// key, and of those equal to it, the ones at a global position before the splitter's. Two binary
/// searches; bucket d of the part is [boundary(splitter d - 1), boundary(splitter d)).
STEPWISE_HD inline std::size_t bucket_boundary(const std::uint32_t* keys, std::size_t count, std::size_t global_first,
                                               std::uint64_t splitter) {
  const std::uint32_t key = sample_key(splitter);
  const std::size_t low = lower_bound_key(keys, count, key);
  const std::size_t high = upper_bound_key(keys, count, key);
  const std::size_t position = sample_global(splitter);
  if (position <= global_first + low) return low;
  if (position >= global_first + high) return high;
  return position - global_first;
}

}  // namespace stepwise::multigpu
