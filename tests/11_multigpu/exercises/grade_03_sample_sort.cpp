// The grader of exercise 11-3 (chapters/11_multigpu/exercises/README.md): the student's splitters and G x G bucket
// counts against sort_plan.hpp's replay_sample_sort (the kernels' arithmetic, sample_sort.hpp, on the CPU) for
// 1 to 8 GPUs, 1 to 16 samples, n from 0 to 10,007 (n below G included) and uniform, few-valued, one-valued,
// sorted and reversed keys; then the buckets' sums, which must be each GPU's share. A planted wrong answer
// (splitters by key alone, so that equal keys all go to one GPU) must fail the same checks.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "03_sample_sort.hpp"
#include "exercise_checks.hpp"
#include "sample_sort.hpp"
#include "sort_plan.hpp"

using namespace stepwise;
using namespace stepwise::multigpu;
using exercises::SampleSortPrediction;
using stepwise::testing::Differences;

namespace {

using Answer = std::function<SampleSortPrediction(const std::vector<std::uint32_t>&, int, int)>;

std::vector<std::pair<std::string, std::vector<std::uint32_t>>> inputs() {
  std::vector<std::pair<std::string, std::vector<std::uint32_t>>> cases = {
      {"5 1 4 1 5 9 2 6 5 3 5 8", {5, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8}}, {"no key", {}}, {"one key", {42}}};
  std::mt19937 random(113);
  for (std::size_t n : {std::size_t{3}, std::size_t{100}, std::size_t{10007}}) {
    std::vector<std::uint32_t> uniform(n), few(n), one(n, 7), sorted(n), reversed(n);
    for (std::size_t i = 0; i < n; ++i) {
      uniform[i] = static_cast<std::uint32_t>(random());
      few[i] = static_cast<std::uint32_t>(random() % 3);
      sorted[i] = static_cast<std::uint32_t>(i / 2);
      reversed[i] = static_cast<std::uint32_t>(n - i);
    }
    const std::string size = ", n = " + std::to_string(n);
    cases.push_back({"uniform" + size, uniform});
    cases.push_back({"three values" + size, few});
    cases.push_back({"one value" + size, one});
    cases.push_back({"sorted pairs" + size, sorted});
    cases.push_back({"reversed" + size, reversed});
  }
  return cases;
}

void grade(Differences& differences, const Answer& answer) {
  for (const auto& [name, keys] : inputs())
    for (int gpus = 1; gpus <= kMaxGpus; ++gpus)
      for (int samples : {1, 2, 3, 16}) {
        const std::string where = name + ", " + std::to_string(gpus) + " GPUs, " + std::to_string(samples) + " samples";
        const SampleSortPrediction yours = answer(keys, gpus, samples);
        const SortReplay model = replay_sample_sort(keys, gpus, samples);
        differences.compare(where + ", splitters", yours.splitters.size(), model.splitters.size());
        for (std::size_t j = 0; j < std::min(yours.splitters.size(), model.splitters.size()); ++j)
          differences.compare(where + ", splitter " + std::to_string(j + 1) + " (key << 32 | position)",
                              yours.splitters[j], model.splitters[j]);
        if (yours.counts.size() != model.plan.counts.size()) {
          differences.add(where + ": " + std::to_string(yours.counts.size()) +
                          " counts, not G x G = " + std::to_string(model.plan.counts.size()));
          continue;
        }
        for (int g = 0; g < gpus; ++g)
          for (int d = 0; d < gpus; ++d) {
            const std::size_t at = static_cast<std::size_t>(g * gpus + d);
            differences.compare(where + ", GPU " + std::to_string(g) + " to GPU " + std::to_string(d), yours.counts[at],
                                model.plan.counts[at]);
          }
      }
}

/// Planted: splitters chosen by key alone, buckets cut at the key's upper bound: equal keys never split.
SampleSortPrediction by_key_alone(const std::vector<std::uint32_t>& keys, int gpus, int samples) {
  const SortReplay replay = replay_sample_sort(keys, gpus, samples);
  SampleSortPrediction prediction;
  for (std::uint64_t splitter : replay.splitters) prediction.splitters.push_back(pack_sample(sample_key(splitter), 0));
  for (int g = 0; g < gpus; ++g) {
    std::vector<std::uint32_t> part(keys.begin() + static_cast<std::ptrdiff_t>(part_begin(keys.size(), gpus, g)),
                                    keys.begin() + static_cast<std::ptrdiff_t>(part_begin(keys.size(), gpus, g + 1)));
    std::sort(part.begin(), part.end());
    std::size_t previous = 0;
    for (int d = 0; d < gpus; ++d) {
      const std::size_t boundary =
          d + 1 < gpus && !replay.splitters.empty()
              ? upper_bound_key(part.data(), part.size(), sample_key(replay.splitters[static_cast<std::size_t>(d)]))
              : part.size();
      prediction.counts.push_back(boundary - previous);
      previous = boundary;
    }
  }
  return prediction;
}

}  // namespace

TEST_CASE("exercise 11-3: your splitters and bucket counts are replay_sample_sort's") {
  Differences differences;
  grade(differences, exercises::predicted_sample_sort);
  differences.check();
}

TEST_CASE("exercise 11-3: your buckets hold each part once, and one repeated key is spread over every GPU") {
  for (int gpus = 1; gpus <= kMaxGpus; ++gpus) {
    const std::vector<std::uint32_t> keys(1000, 7);
    const SampleSortPrediction yours = exercises::predicted_sample_sort(keys, gpus, 8);
    REQUIRE(yours.counts.size() == static_cast<std::size_t>(gpus * gpus));
    std::uint64_t largest = 0;
    for (int g = 0; g < gpus; ++g) {
      std::uint64_t sent = 0;
      for (int d = 0; d < gpus; ++d) sent += yours.counts[static_cast<std::size_t>(g * gpus + d)];
      CHECK_MESSAGE(sent == part_size(keys.size(), gpus, g), "GPU " << g << " of " << gpus << " sends " << sent
                                                                    << " keys, its part holds "
                                                                    << part_size(keys.size(), gpus, g));
    }
    for (int d = 0; d < gpus; ++d) {
      std::uint64_t received = 0;
      for (int g = 0; g < gpus; ++g) received += yours.counts[static_cast<std::size_t>(g * gpus + d)];
      largest = std::max(largest, received);
    }
    CHECK_MESSAGE(largest <= 2 * 1000 / gpus, gpus << " GPUs: one GPU receives " << largest << " of 1,000 equal keys");
  }
}

TEST_CASE("exercise 11-3: the grader fails a planted wrong answer (splitters by key alone)") {
  Differences planted;
  grade(planted, by_key_alone);
  CHECK(planted.count() > 0);
  Differences model;
  grade(model, [](const std::vector<std::uint32_t>& keys, int gpus, int samples) {
    const SortReplay replay = replay_sample_sort(keys, gpus, samples);
    return SampleSortPrediction{replay.splitters, replay.plan.counts};
  });
  CHECK(model.count() == 0);
}
