// The grader of exercise 03-1 (chapters/03_merge/exercises/README.md): the student's Merge Path split
// at every diagonal of adversarial and random merges, against the chapter's merge_path (the search the
// kernels run, common/algorithm/merge_path.hpp) and against the merge itself (analysis.hpp's
// merge_steps: the A outputs among the first d steps of the stable merge).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "01_split.hpp"
#include "algorithm/merge_path.hpp"
#include "analysis.hpp"
#include "exercise_checks.hpp"
#include "merge_inputs.hpp"

using namespace stepwise;
using stepwise::testing::Differences;

TEST_CASE("exercise 03-1: every diagonal of every merge, against merge_path") {
  Differences differences;
  for (const merge::grading::MergeInput& input : merge::grading::merge_inputs()) {
    const std::int64_t na = static_cast<std::int64_t>(input.a.size());
    const std::int64_t nb = static_cast<std::int64_t>(input.b.size());
    for (std::int64_t d = 0; d <= na + nb; ++d) {
      const std::int64_t model = merge_path(input.a.data(), na, input.b.data(), nb, d, Less{});
      differences.compare(input.name + ", diagonal " + std::to_string(d),
                          merge::exercises::merge_path_split(input.a, input.b, static_cast<std::size_t>(d)),
                          static_cast<std::size_t>(model));
    }
  }
  differences.check();
}

TEST_CASE("exercise 03-1: the split is the A outputs among the merge's first d") {
  Differences differences;
  for (const merge::grading::MergeInput& input : merge::grading::merge_inputs()) {
    const std::vector<merge::PathStep> steps = merge::merge_steps(input.a, input.b);
    std::size_t from_a = 0;
    for (std::size_t d = 0; d <= steps.size(); ++d) {
      differences.compare(input.name + ", diagonal " + std::to_string(d),
                          merge::exercises::merge_path_split(input.a, input.b, d), from_a);
      if (d < steps.size() && steps[d].from_a) ++from_a;
    }
  }
  differences.check();
}
