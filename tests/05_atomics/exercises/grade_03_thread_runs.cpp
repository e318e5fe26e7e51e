// The grader of exercise 05-3 (chapters/05_atomics/exercises/README.md): the student's atomics of
// warp groups and of thread runs, against the chapter's profile of the keys (analysis.hpp's
// profile_warps: what --analyze prints as atomics per element of stages 2-5 and of stage 7).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "03_thread_runs.hpp"
#include "analysis.hpp"
#include "exercise_checks.hpp"
#include "warp_inputs.hpp"

using namespace stepwise;
using atomics::exercises::KeyAtomics;
using stepwise::testing::Differences;

TEST_CASE("exercise 05-3: the predictions, 2^24 equal keys and runs of 8 on 32 bins") {
  Differences differences;
  const std::vector<atomics::Key> equal(std::size_t{1} << 24, 17);
  const KeyAtomics yours = atomics::exercises::key_atomics(equal);
  differences.compare("2^24 equal keys, stages 2-5", yours.per_group, std::uint64_t{524288});
  differences.compare("2^24 equal keys, stage 7", yours.thread_runs, std::uint64_t{65536});
  const std::vector<atomics::Key> runs8 =
      atomics::make_keys(std::size_t{1} << 24, 32, atomics::parse_distribution("runs:8"), 20261121);
  const atomics::WarpProfile model = atomics::profile_warps(runs8);
  const KeyAtomics runs = atomics::exercises::key_atomics(runs8);
  differences.compare("2^24 keys in runs of 8 on 32 bins, stages 2-5", runs.per_group, model.groups);
  differences.compare("2^24 keys in runs of 8 on 32 bins, stage 7", runs.thread_runs, model.run_atomics);
  differences.check();
}

namespace {
/// Your atomics against profile_warps' on every case of @p cases.
void check_against_profile(const std::vector<atomics::grading::KeysCase>& cases) {
  Differences differences;
  for (const atomics::grading::KeysCase& input : cases) {
    const atomics::WarpProfile model = atomics::profile_warps(input.keys);
    const KeyAtomics yours = atomics::exercises::key_atomics(input.keys);
    differences.compare(input.name + ", stages 2-5", yours.per_group, model.groups);
    differences.compare(input.name + ", stage 7", yours.thread_runs, model.run_atomics);
  }
  differences.check();
}
}  // namespace

TEST_CASE("exercise 05-3: every length and distribution, against profile_warps") {
  check_against_profile(atomics::grading::key_arrays());
}

TEST_CASE("exercise 05-3: one warp's tile, every width, against profile_warps") {
  check_against_profile(atomics::grading::warp_cases());
}
