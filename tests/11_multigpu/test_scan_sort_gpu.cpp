// GPU tests of chapter 11's distributed scan and sample sort, on every team of 1 to all visible
// GPUs (at most 8): both scan stages and the CUB row, int32 exactly and float32 within a bound
// that a wrong offset breaks, and the sample sort's concatenated output against std::sort, at
// n = 1, n < G, n not divisible by G and larger n, on uniform and skewed keys (few distinct,
// sorted, one repeated non-zero key); and stage 2's partition pass alone on one GPU, for every bucket
// count from 1 to kMaxGpus, against bucket_of on the CPU (a team of two GPUs runs only G = 1 and 2 of
// its instantiations). Skipped (exit 77 through doctest's main) without a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "communicators.hpp"
#include "host/check.hpp"
#include "host/device_buffer.hpp"
#include "host/multi_device.hpp"
#include "nccl_check.hpp"
#include "sample_sort.hpp"
#include "scan.hpp"
#include "sort.hpp"

using namespace stepwise;
using namespace stepwise::multigpu;

namespace {

/// The first @p gpus devices with their streams and NCCL communicators.
class Team {
 public:
  explicit Team(int gpus) : devices_(gpus), comms_(gpus) {}
  ~Team() { devices_.synchronize(); }
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;
  const DeviceTeam& devices() const { return devices_; }
  const std::vector<ncclComm_t>& comms() const { return comms_.comms(); }

 private:
  DeviceTeam devices_;
  Communicators comms_;  // destroyed first, after the destructor's synchronize
};

int gpus_to_test() { return std::min(visible_device_count(), kMaxGpus); }

const std::vector<std::size_t> kScanSizes{1, 3, 5, 3583, 3584, 3585, 1000003};

template <class T>
std::vector<T> scan_input(std::size_t n, std::uint32_t seed) {
  std::mt19937 generator(seed);
  std::vector<T> values(n);
  for (T& value : values) {
    if constexpr (std::is_same_v<T, float>)
      value = static_cast<float>(generator() % 2000 + 1) / 1000.0f;  // (0, 2]: a lost offset is about its part's size
    else
      value = static_cast<std::int32_t>(generator());  // wraps: overflow is part of the test
  }
  return values;
}

template <class Op>
void check_scan_rows(const Team& team, std::size_t n) {
  const int gpus = team.devices().size();
  using T = typename Op::value_type;
  const std::vector<T> input = scan_input<T>(n, static_cast<std::uint32_t>(n * 31 + gpus));
  std::vector<T> expected(n);
  inclusive_scan_on_cpu<Op>(input.data(), expected.data(), n);
  std::vector<double> exact(n);  // float32: the sums in double, all terms positive (so each is its own scale)
  double running = 0.0;
  for (std::size_t i = 0; i < n; ++i) exact[i] = running += static_cast<double>(input[i]);
  std::vector<ScanGpuMemory> memory = make_scan_memory<Op>(n, gpus);
  std::vector<DeviceBuffer<T>> ins;
  std::vector<DeviceBuffer<T>> outs;
  ScanOperands<Op> ops;
  ops.team = &team.devices();
  ops.comms = team.comms();
  ops.n = n;
  ops.memory = &memory;
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    const std::size_t first = part_begin(n, gpus, g);
    ins.emplace_back(std::vector<T>(input.begin() + static_cast<std::ptrdiff_t>(first),
                                    input.begin() + static_cast<std::ptrdiff_t>(first + part_size(n, gpus, g))));
    outs.emplace_back(part_size(n, gpus, g));
    ops.in.push_back(ins.back().data());
    ops.out.push_back(outs.back().data());
  }
  DeviceBuffer<T> whole_in;
  DeviceBuffer<T> whole_out;
  {
    const ScopedDevice device(0);
    whole_in = DeviceBuffer<T>(input);
    whole_out = DeviceBuffer<T>(n);
    ops.whole_in = whole_in.data();
    ops.whole_out = whole_out.data();
  }
  for (const ScanStage<Op>& stage : scan_stages<Op>()) {
    CAPTURE(stage.name);
    for (int g = 0; g < gpus; ++g) {
      const ScopedDevice device(g);
      poison(outs[static_cast<std::size_t>(g)]);
      if (g == 0) poison(whole_out);
      STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    }
    stage.launch(ops, stage.shape);
    team.devices().synchronize();
    std::vector<T> result;
    if (stage.traits.one_gpu) {
      const ScopedDevice device(0);
      result = whole_out.download();
    } else {
      for (int g = 0; g < gpus; ++g) {
        const ScopedDevice device(g);
        const std::vector<T> part = outs[static_cast<std::size_t>(g)].download();
        result.insert(result.end(), part.begin(), part.end());
      }
    }
    REQUIRE(result.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<T, float>) {
        // the executable's bound: a chain of at most i / 1024 + 64 + G float additions, each off by
        // at most u = 2^-24 of the sum so far; a lost or doubled offset (a part's sum) is far outside
        const double bound =
            static_cast<double>(i / 1024 + 64 + static_cast<std::size_t>(gpus)) * std::ldexp(1.0, -24) * exact[i];
        if (!(std::fabs(static_cast<double>(result[i]) - exact[i]) <= bound)) {
          FAIL_CHECK("gpus ", gpus, " n ", n, " index ", i, ": ", result[i], " != ", exact[i]);
          break;
        }
      } else if (result[i] != expected[i]) {
        FAIL_CHECK("gpus ", gpus, " n ", n, " index ", i, ": ", result[i], " != ", expected[i]);
        break;
      }
    }
  }
}

std::vector<std::uint32_t> sort_input(std::size_t n, int kind, std::uint32_t seed) {
  std::mt19937 generator(seed);
  std::vector<std::uint32_t> keys(n);
  for (std::uint32_t& key : keys) key = static_cast<std::uint32_t>(generator());
  if (kind == 1)
    for (std::uint32_t& key : keys) key = 17u + key % 3u;  // three distinct keys
  if (kind == 2) std::sort(keys.begin(), keys.end());
  if (kind == 3) std::fill(keys.begin(), keys.end(), 0x9e3779b9u);  // one repeated non-zero key
  return keys;
}

void check_sample_sort(const Team& team, std::size_t n, int kind, int samples) {
  const int gpus = team.devices().size();
  const std::vector<std::uint32_t> input = sort_input(n, kind, static_cast<std::uint32_t>(n + 7 * gpus));
  std::vector<std::uint32_t> expected = input;
  std::sort(expected.begin(), expected.end());
  SortWorkspace workspace(n, gpus, samples);
  SortOutcome outcome;
  std::vector<DeviceBuffer<std::uint32_t>> parts;
  SortOperands ops;
  ops.team = &team.devices();
  ops.comms = team.comms();
  ops.n = n;
  ops.workspace = &workspace;
  ops.outcome = &outcome;
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    const std::size_t first = part_begin(n, gpus, g);
    parts.emplace_back(
        std::vector<std::uint32_t>(input.begin() + static_cast<std::ptrdiff_t>(first),
                                   input.begin() + static_cast<std::ptrdiff_t>(first + part_size(n, gpus, g))));
    ops.parts.push_back(parts.back().data());
  }
  DeviceBuffer<std::uint32_t> whole_in;
  DeviceBuffer<std::uint32_t> whole_out;
  {
    const ScopedDevice device(0);
    whole_in = DeviceBuffer<std::uint32_t>(input);
    whole_out = DeviceBuffer<std::uint32_t>(n);
    ops.whole_in = whole_in.data();
    ops.whole_out = whole_out.data();
  }
  for (const SortStage& stage : sort_stages())
    for (int repetition = 0; repetition < 2; ++repetition) {  // a second run reuses the workspace
      CAPTURE(stage.name);
      for (int g = 0; g < gpus; ++g) {
        const ScopedDevice device(g);
        poison(workspace.memory(g).received);
        poison(workspace.memory(g).merged);
        if (g == 0) poison(whole_out);
        STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
      }
      stage.launch(ops, stage.shape);
      team.devices().synchronize();
      std::vector<std::uint32_t> result;
      for (std::size_t g = 0; g < outcome.outputs.size(); ++g) {
        const ScopedDevice device(static_cast<int>(g));
        const std::size_t count = outcome.plan.recv_totals[g];
        std::vector<std::uint32_t> share(count);
        if (count > 0)
          STEPWISE_CUDA_CHECK(
              cudaMemcpy(share.data(), outcome.outputs[g], count * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
        result.insert(result.end(), share.begin(), share.end());
      }
      CHECK_MESSAGE(result == expected, "gpus ", gpus, " n ", n, " input ", kind, " samples ", samples);
      if (stage.traits.one_gpu) continue;
      // the GPUs chose the plan the row's CPU replay chooses, and timed every phase
      REQUIRE(static_cast<bool>(stage.traits.replay));
      CHECK(outcome.plan.counts == stage.traits.replay(input, gpus, samples).plan.counts);
      REQUIRE(!stage.traits.phases.empty());
      for (double ms : workspace.phase_ms(static_cast<int>(stage.traits.phases.size()))) CHECK(ms >= 0.0);
    }
}

}  // namespace

TEST_CASE("both distributed scans and the CUB row match the CPU, int32 exactly, float32 within a bound") {
  const int most = gpus_to_test();
  REQUIRE(most >= 1);
  for (int gpus = 1; gpus <= most; ++gpus) {
    const Team team(gpus);
    for (std::size_t n : kScanSizes) {
      check_scan_rows<WrappingSum>(team, n);
      check_scan_rows<FloatSum>(team, n);
    }
  }
}

TEST_CASE("the sample sort's concatenated output is the sorted input, on every input class and edge size") {
  const int most = gpus_to_test();
  REQUIRE(most >= 1);
  for (int gpus = 1; gpus <= most; ++gpus) {
    const Team team(gpus);
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{4099}, std::size_t{1000003}})
      for (int kind = 0; kind < 4; ++kind) check_sample_sort(team, n, kind, 64);
    check_sample_sort(team, 100003, 0, 1);
    check_sample_sort(team, 100003, 1, kMaxSamples);
  }
}

TEST_CASE("stage 2's partition pass splits a part into 1 to kMaxGpus buckets on one GPU, as bucket_of does") {
  REQUIRE(visible_device_count() >= 1);
  const ScopedDevice device(0);
  std::mt19937_64 generator(20261128);
  for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{2047}, std::size_t{2049}, std::size_t{100003},
                        std::size_t{1} << 21})
    for (int kind = 0; kind < 3; ++kind) {  // random, five distinct keys, one key
      std::vector<std::uint32_t> keys(n);
      for (std::uint32_t& key : keys)
        key = kind == 0   ? static_cast<std::uint32_t>(generator())
              : kind == 1 ? static_cast<std::uint32_t>(generator() % 5)
                          : 7u;
      const std::size_t first = 12345;  // the part's first global position
      std::vector<std::uint64_t> pairs(n);
      for (std::size_t i = 0; i < n; ++i) pairs[i] = pack_sample(keys[i], first + i);
      std::sort(pairs.begin(), pairs.end());
      const DeviceBuffer<std::uint32_t> part(keys);
      for (int buckets = 1; buckets <= kMaxGpus; ++buckets) {
        CAPTURE(n);
        CAPTURE(kind);
        CAPTURE(buckets);
        std::vector<std::uint64_t> splitters(kMaxGpus, kNoSample);
        for (int j = 0; j + 1 < buckets; ++j) splitters[static_cast<std::size_t>(j)] = pairs[(j + 1) * n / buckets];
        std::vector<std::vector<std::uint32_t>> expected(static_cast<std::size_t>(buckets));
        for (std::size_t i = 0; i < n; ++i)
          expected[static_cast<std::size_t>(bucket_of(keys[i], first + i, splitters.data(), buckets - 1))].push_back(
              keys[i]);
        const DeviceBuffer<std::uint64_t> cuts(splitters);
        DeviceBuffer<std::uint32_t> out(n * static_cast<std::size_t>(buckets));
        DeviceBuffer<unsigned long long> fill(kMaxGpus);
        STEPWISE_CUDA_CHECK(cudaMemset(out.data(), 0xff, out.size() * sizeof(std::uint32_t)));
        STEPWISE_CUDA_CHECK(cudaMemset(fill.data(), 0, fill.size() * sizeof(unsigned long long)));
        partition_into_buckets_on(buckets, part.data(), n, first, cuts.data(), out.data(), n, fill.data(), nullptr);
        STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
        const std::vector<unsigned long long> sizes = fill.download();
        const std::vector<std::uint32_t> written = out.download();
        for (int d = 0; d < kMaxGpus; ++d) {
          CAPTURE(d);
          if (d >= buckets) {
            CHECK(sizes[static_cast<std::size_t>(d)] == 0);
            continue;
          }
          std::vector<std::uint32_t> want = expected[static_cast<std::size_t>(d)];
          REQUIRE(sizes[static_cast<std::size_t>(d)] == want.size());
          const auto begin = written.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(d) * n);
          std::vector<std::uint32_t> got(begin, begin + static_cast<std::ptrdiff_t>(want.size()));
          std::sort(got.begin(), got.end());
          std::sort(want.begin(), want.end());
          CHECK(got == want);
          // Past its size the bucket keeps the poison: nothing was written beyond it.
          if (want.size() < n) CHECK(written[static_cast<std::size_t>(d) * n + want.size()] == 0xffffffffu);
        }
      }
    }
  CHECK_THROWS_AS(partition_into_buckets_on(0, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, nullptr),
                  std::invalid_argument);
  CHECK_THROWS_AS(partition_into_buckets_on(kMaxGpus + 1, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, nullptr),
                  std::invalid_argument);
}
