// The grader of exercise 03-4 (chapters/03_merge/exercises/README.md), a build exercise: the
// student's stage 2 (build_4_path_per_thread.cu) through chapter 03's merge checks
// (merge_checks.hpp, as test_merge_gpu.cpp runs them on every row), for int32 and int64 keys, keys
// alone and key-value pairs: every edge size of the merge table, every distribution of keys,
// every shape of the sweep at its tile edges, poisoned outputs, exact keys and values, guard
// zones; then timed beside the chapter's stage 2 at |A| = |B| = 2^25 int32 keys: it passes at 90 %
// of stage 2's GB/s or more (build_exercise.hpp). One line per check.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include "build_4_path_per_thread.hpp"
#include "build_exercise.hpp"
#include "host/data.hpp"
#include "host/sizes.hpp"
#include "merge.hpp"
#include "merge_checks.hpp"

using namespace stepwise;
using namespace stepwise::merge;
using namespace stepwise::testing;

namespace {

const std::string kExercise = "03-4";
/// The gate's size: |A| = |B| = 2^25 int32 keys, 256 MiB read and 256 MiB written, far beyond any L2.
constexpr std::size_t kGateHalf = std::size_t{1} << 25;

template <class K>
std::string key_name() {
  return std::is_same_v<K, std::int64_t> ? "int64" : "int32";
}

std::string size_pairs(const SizePairs& sizes) { return std::to_string(sizes.size()) + " (|A|, |B|) pairs"; }

}  // namespace

void stepwise::testing::require_student_stage() {
  exercises::exercise_03_4_stage<std::int32_t>();
  exercises::exercise_03_4_stage<std::int64_t>();
}

TEST_CASE_TEMPLATE("exercise 03-4: your stage merges exactly at every edge size, at its default shape", K, std::int32_t,
                   std::int64_t) {
  const MergeStage<K> yours = exercises::exercise_03_4_stage<K>();
  report_check(kExercise,
               key_name<K>() + " keys and pairs, every edge size (" + size_pairs(merge_edge_sizes<K>()) +
                   ", uniform keys), " + describe(yours.shape),
               check_merge_edge_sizes<K>({yours}));
}

TEST_CASE_TEMPLATE("exercise 03-4: your stage merges exactly for every distribution of keys", K, std::int32_t,
                   std::int64_t) {
  const MergeStage<K> yours = exercises::exercise_03_4_stage<K>();
  report_check(kExercise,
               key_name<K>() + " keys and pairs, every distribution (" +
                   std::to_string(std::size(kMergeDistributions)) + " x " + size_pairs(merge_distribution_sizes()) +
                   ": ties, skews, all equal), " + describe(yours.shape),
               check_merge_distributions<K>({yours}));
}

TEST_CASE_TEMPLATE("exercise 03-4: your stage merges exactly at every shape of its sweep", K, std::int32_t,
                   std::int64_t) {
  const MergeStage<K> yours = exercises::exercise_03_4_stage<K>();
  report_check(kExercise,
               key_name<K>() + " keys and pairs, every shape of the sweep (" + std::to_string(yours.sweep.size()) +
                   " shapes, each at its tile edges)",
               check_merge_sweep_shapes<K>({yours}));
}

TEST_CASE("exercise 03-4: the speed gate, your stage against stage 2 at |A| = |B| = 2^25") {
  const MergeStage<std::int32_t> yours = exercises::exercise_03_4_stage<std::int32_t>();
  const MergeStage<std::int32_t> solution = merge_path_per_thread<std::int32_t>();
  MergeCase<std::int32_t> input(kGateHalf, kGateHalf, Distribution::uniform, false, fresh_seed());
  Tally before;
  before.add(check_merge_row(yours, yours.shape, input, Distribution::uniform));
  report_check(kExercise,
               "int32 keys, the gate's size (|A| = |B| = " + format_count(kGateHalf) + "), " + describe(yours.shape),
               before);
  REQUIRE_MESSAGE(before.failed == 0, "a wrong merge is not timed");
  const auto work = [&input](const MergeStage<std::int32_t>& stage) {
    return [&input, stage](cudaStream_t stream) { input.launch(stage, stage.shape, stream); };
  };
  // The chapter's bytes_moved: read A and B, write the merge.
  const double bytes = 2.0 * sizeof(std::int32_t) * static_cast<double>(2 * kGateHalf);
  check_speed_gate(kExercise, "|A| = |B| = " + format_count(kGateHalf) + " int32 keys", bytes, {"yours", work(yours)},
                   {"stage 2", work(solution)});
}
