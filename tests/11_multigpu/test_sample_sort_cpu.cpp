// CPU tests of chapter 11's sample sort and distributed scan arithmetic (sample_sort.hpp,
// sort_plan.hpp): the parts, the samples, the splitters, the buckets' boundaries by binary search,
// the exchange plans for 1 to 8 GPUs, and the whole sort replayed on the CPU on uniform and
// skewed inputs, n not divisible by G, n < G and n = 1. No GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "parts.hpp"
#include "sample_sort.hpp"
#include "sort_plan.hpp"

using namespace stepwise::multigpu;

namespace {

std::vector<std::uint32_t> uniform_keys(std::size_t n, std::uint32_t seed) {
  std::mt19937 generator(seed);
  std::vector<std::uint32_t> keys(n);
  for (std::uint32_t& key : keys) key = static_cast<std::uint32_t>(generator());
  return keys;
}

std::vector<std::uint32_t> few_keys(std::size_t n, std::uint32_t distinct, std::uint32_t seed) {
  std::mt19937 generator(seed);
  std::vector<std::uint32_t> keys(n);
  for (std::uint32_t& key : keys) key = 1000u + 7u * (static_cast<std::uint32_t>(generator()) % distinct);
  return keys;
}

/// The concatenation of the GPUs' outputs in GPU order.
std::vector<std::uint32_t> concatenated(const SortReplay& replay) {
  std::vector<std::uint32_t> all;
  for (const std::vector<std::uint32_t>& output : replay.outputs) all.insert(all.end(), output.begin(), output.end());
  return all;
}

/// A sort's CPU replay (stage 1's or stage 2's).
using Replay = SortReplay (*)(const std::vector<std::uint32_t>&, int, int);

void check_sorts(const std::vector<std::uint32_t>& keys, int gpus, int samples, Replay replay_of = replay_sample_sort) {
  const SortReplay replay = replay_of(keys, gpus, samples);
  std::vector<std::uint32_t> expected = keys;
  std::sort(expected.begin(), expected.end());
  CHECK(concatenated(replay) == expected);
  REQUIRE(replay.plan.recv_totals.size() == static_cast<std::size_t>(gpus));
  for (int d = 0; d < gpus; ++d)
    CHECK(replay.outputs[static_cast<std::size_t>(d)].size() == replay.plan.recv_totals[static_cast<std::size_t>(d)]);
}

}  // namespace

TEST_CASE("parts cover n in order, the first n % G one key longer") {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{7}, std::size_t{1000003}})
    for (int gpus = 1; gpus <= kMaxGpus; ++gpus) {
      CHECK(part_begin(n, gpus, 0) == 0);
      CHECK(part_begin(n, gpus, gpus) == n);
      for (int g = 0; g < gpus; ++g) {
        const std::size_t size = part_size(n, gpus, g);
        CHECK(size == n / static_cast<std::size_t>(gpus) + (static_cast<std::size_t>(g) < n % gpus ? 1 : 0));
      }
    }
  CHECK(part_size(1, 8, 0) == 1);
  CHECK(part_size(1, 8, 7) == 0);
}

TEST_CASE("regular samples lie inside the part, in order, spread over it") {
  for (std::size_t count : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{100}, std::size_t{1u << 20}})
    for (int samples : {1, 2, 7, 64}) {
      std::size_t previous = 0;
      for (int i = 0; i < samples; ++i) {
        const std::size_t position = sample_position(count, samples, i);
        CHECK(position < count);
        CHECK(position >= previous);
        previous = position;
      }
    }
  CHECK(sample_position(100, 4, 0) == 12);
  CHECK(sample_position(100, 4, 3) == 87);
}

TEST_CASE("a packed sample orders by key, then by global position") {
  CHECK(pack_sample(5, 9) < pack_sample(6, 0));
  CHECK(pack_sample(5, 1) < pack_sample(5, 2));
  CHECK(sample_key(pack_sample(0xfffffffeu, 123)) == 0xfffffffeu);
  CHECK(sample_global(pack_sample(7, kMaxSortKeys - 2)) == kMaxSortKeys - 2);
  CHECK(pack_sample(0xffffffffu, kMaxSortKeys - 2) < kNoSample);
}

TEST_CASE("at n = 2^32 no sample can be the largest (key, position), the one that packs to kNoSample") {
  CHECK(pack_sample(0xffffffffu, kMaxSortKeys - 1) == kNoSample);
  // A sample is the middle of the last of s slices: below the largest of more than 2 s keys, and
  // the largest of 2 s or fewer can be taken (2 s keys, or two keys and 128 samples).
  for (const int samples : {1, 64, kMaxSamples})
    for (const std::size_t count :
         {2 * static_cast<std::size_t>(samples) + 1, kLocalSamples, (kMaxSortKeys >> 3) + 1, kMaxSortKeys})
      CHECK(sample_position(count, samples, samples - 1) < count - 1);
  CHECK(sample_position(2, kMaxSamples, kMaxSamples - 1) == 1);
  CHECK(sample_position(2 * kMaxSamples, kMaxSamples, kMaxSamples - 1) == 2 * kMaxSamples - 1);
  // n = 2^32 on kMaxGpus GPUs: every part holds 2^29 keys, and stage 2 draws kLocalSamples of them.
  for (int g = 0; g < kMaxGpus; ++g) CHECK(part_size(kMaxSortKeys, kMaxGpus, g) == (kMaxSortKeys >> 3));
  CHECK(kLocalSamples > 2 * static_cast<std::size_t>(kMaxSamples));
}

TEST_CASE("the rank sort of the samples is a stable sort") {
  const std::vector<std::uint64_t> samples{9, 3, kNoSample, 3, 0, 12};
  std::vector<std::uint64_t> sorted(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i)
    sorted[sample_sorted_rank(samples.data(), samples.size(), i)] = samples[i];
  CHECK(sorted == std::vector<std::uint64_t>{0, 3, 3, 9, 12, kNoSample});
}

TEST_CASE("splitters: G - 1 valid samples at j * valid / G, empty slots ignored") {
  std::vector<std::uint64_t> samples;
  for (std::uint64_t i = 0; i < 8; ++i) samples.push_back(pack_sample(static_cast<std::uint32_t>(100 - i), i));
  for (int i = 0; i < 8; ++i) samples.push_back(kNoSample);  // a second GPU with an empty part
  const std::vector<std::uint64_t> two = choose_splitters(samples, 2);
  REQUIRE(two.size() == 1);
  CHECK(sample_key(two[0]) == 97);  // the sorted keys are 93..100, rank 4 of 8
  const std::vector<std::uint64_t> four = choose_splitters(samples, 4);
  REQUIRE(four.size() == 3);
  CHECK(sample_key(four[0]) == 95);
  CHECK(sample_key(four[2]) == 99);
  CHECK(choose_splitters(std::vector<std::uint64_t>(16, kNoSample), 2).empty());
  CHECK(choose_splitters(samples, 1).empty());
}

TEST_CASE("bucket boundaries by binary search split equal keys by global position") {
  const std::vector<std::uint32_t> part{1, 3, 3, 3, 3, 8};  // global positions 100..105
  const auto boundary = [&](std::uint32_t key, std::size_t position) {
    return bucket_boundary(part.data(), part.size(), 100, pack_sample(key, position));
  };
  CHECK(boundary(0, 0) == 0);
  CHECK(boundary(2, 0) == 1);
  CHECK(boundary(3, 0) == 1);    // a splitter on 3 before this part: every 3 above it
  CHECK(boundary(3, 103) == 3);  // two 3s (positions 101, 102) before it
  CHECK(boundary(3, 999) == 5);  // after this part: every 3 below it
  CHECK(boundary(8, 105) == 5);
  CHECK(boundary(9, 0) == 6);
  CHECK(bucket_boundary(part.data(), 0, 0, pack_sample(3, 0)) == 0);
  CHECK(lower_bound_key(part.data(), part.size(), 3) == 1);
  CHECK(upper_bound_key(part.data(), part.size(), 3) == 5);
}

TEST_CASE("exchange plans for 1 to 8 GPUs: offsets are prefix sums, runs arrive in sender order") {
  for (int gpus = 1; gpus <= kMaxGpus; ++gpus) {
    const std::size_t g_count = static_cast<std::size_t>(gpus);
    std::vector<std::uint64_t> counts(g_count * g_count);
    for (std::size_t i = 0; i < counts.size(); ++i) counts[i] = (i * 7 + 3) % 5;  // zeros among them
    const ExchangePlan plan = make_exchange_plan(counts, gpus);
    std::uint64_t total = 0;
    for (std::size_t d = 0; d < g_count; ++d) {
      std::uint64_t expected_offset = 0;
      for (std::size_t g = 0; g < g_count; ++g) {
        CHECK(plan.recv_offsets[d * g_count + g] == expected_offset);
        expected_offset += counts[g * g_count + d];
      }
      CHECK(plan.recv_totals[d] == expected_offset);
      CHECK(output_begin(plan, static_cast<int>(d)) == total);
      total += expected_offset;
    }
    CHECK(total == std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}));
    for (std::size_t g = 0; g < g_count; ++g)
      for (std::size_t d = 0; d + 1 < g_count; ++d)
        CHECK(plan.send_offsets[g * g_count + d + 1] == plan.send_offsets[g * g_count + d] + counts[g * g_count + d]);
  }
  CHECK_THROWS_AS(make_exchange_plan({1, 2, 3}, 2), std::invalid_argument);
  CHECK_THROWS_AS(make_exchange_plan({}, 0), std::invalid_argument);
  CHECK_THROWS_AS(make_exchange_plan(std::vector<std::uint64_t>(81), 9), std::invalid_argument);
}

TEST_CASE("load balance: 1 when even, G when one GPU receives everything") {
  CHECK(load_balance(make_exchange_plan({1, 1, 1, 1}, 2)) == doctest::Approx(1.0));
  CHECK(load_balance(make_exchange_plan({0, 5, 0, 7}, 2)) == doctest::Approx(2.0));
  CHECK(load_balance(make_exchange_plan({0, 0, 0, 0}, 2)) == doctest::Approx(1.0));
}

/// Both sorts' CPU replays: stage 1 (sorted parts, regular samples) and stage 2 (partition first).
const Replay kReplays[] = {replay_sample_sort, replay_partition_sort};

TEST_CASE("both replayed sorts sort uniform keys for 1 to 8 GPUs, balanced") {
  for (Replay replay : kReplays)
    for (int gpus = 1; gpus <= kMaxGpus; ++gpus) {
      const std::vector<std::uint32_t> keys = uniform_keys(100003, static_cast<std::uint32_t>(gpus));
      check_sorts(keys, gpus, 64, replay);
      CHECK(load_balance(replay(keys, gpus, 64).plan) < 1.25);
    }
}

TEST_CASE("both replayed sorts at the edges: n = 0, n = 1, n < G, n not divisible by G") {
  for (Replay replay : kReplays)
    for (int gpus = 1; gpus <= kMaxGpus; ++gpus)
      for (std::size_t n :
           {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{9}, std::size_t{1001}})
        for (int samples : {1, 3, 64})
          check_sorts(uniform_keys(n, static_cast<std::uint32_t>(n)), gpus, samples, replay);
}

TEST_CASE("skewed inputs: few distinct keys, sorted, reversed, one repeated key all balance in both sorts") {
  for (int gpus : {2, 3, 4, 8}) {
    std::vector<std::uint32_t> sorted = uniform_keys(50001, 5);
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint32_t> reversed(sorted.rbegin(), sorted.rend());
    std::vector<std::uint32_t> one_key(50001, 0x9e3779b9u);
    std::vector<std::uint32_t> few = few_keys(50001, 3, 11);
    for (Replay replay : kReplays)
      for (const std::vector<std::uint32_t>* keys : {&sorted, &reversed, &one_key, &few}) {
        check_sorts(*keys, gpus, 64, replay);
        // equal keys are split by global position, so even one repeated key spreads evenly
        CHECK(load_balance(replay(*keys, gpus, 64).plan) < 1.1);
      }
  }
}

TEST_CASE("stratified samples: one inside each slice, distinct and in order") {
  for (std::size_t count : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{100003}, std::size_t{1} << 20})
    for (std::size_t samples : {std::size_t{1}, std::size_t{3}, std::size_t{64}, kLocalSamples}) {
      if (samples > count) continue;
      std::size_t previous = 0;
      for (std::size_t i = 0; i < samples; ++i) {
        const std::size_t position = stratified_position(count, samples, i);
        CHECK(position >= i * count / samples);
        CHECK(position < (i + 1) * count / samples);
        if (i > 0) CHECK(position > previous);
        previous = position;
      }
    }
}

TEST_CASE("a key's bucket is where bucket_boundary cuts a sorted part") {
  const std::vector<std::uint32_t> keys = few_keys(5003, 5, 3);
  std::vector<std::uint32_t> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t global_first = 1000;
  const std::vector<std::uint64_t> splitters{pack_sample(1007, 2500), pack_sample(1014, 2000), pack_sample(1028, 0)};
  for (std::size_t j = 0; j < splitters.size(); ++j) {
    const std::size_t boundary = bucket_boundary(sorted.data(), sorted.size(), global_first, splitters[j]);
    for (std::size_t i = 0; i < sorted.size(); ++i)
      CHECK((bucket_of(sorted[i], global_first + i, splitters.data(), 3) > static_cast<int>(j)) == (i >= boundary));
  }
  CHECK(bucket_of(5, 0, splitters.data(), 0) == 0);
}

TEST_CASE("the partition-first samples cut uniform keys within 10 % of even for 1 to 8 GPUs") {
  for (int gpus = 1; gpus <= kMaxGpus; ++gpus) {
    const std::vector<std::uint32_t> keys = uniform_keys(300007, static_cast<std::uint32_t>(gpus));
    check_sorts(keys, gpus, 64, replay_partition_sort);
    CHECK(load_balance(replay_partition_sort(keys, gpus, 64).plan) < 1.1);
  }
}

TEST_CASE("traffic per phase: the scan moves one value per GPU, the sort a bucket's worth") {
  const std::vector<PhaseBytes> scan = scan_traffic(1u << 20, 4, 4, 1);
  REQUIRE(scan.size() == 1);
  CHECK(scan[0].sent == 4);
  CHECK(scan[0].received == 12);
  CHECK(scan_traffic(100, 4, 1, 0)[0].received == 0);
  const std::vector<PhaseBytes> sort = sort_traffic(1u << 20, 2, 64, 0);
  REQUIRE(sort.size() == 3);
  CHECK(sort[0].sent == 64 * 8);
  CHECK(sort[0].received == 64 * 8);
  CHECK(sort[1].received == 16);
  CHECK(sort[2].sent == 4u * (1u << 18));
  CHECK(sort_traffic(1u << 20, 1, 64, 0)[2].sent == 0);
}
