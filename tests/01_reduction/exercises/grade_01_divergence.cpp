// The grader of exercise 01-1 (chapters/01_reduction/exercises/README.md): the student's tables of
// kernel 1's and kernel 3's steps at 128 threads, against the chapter's replay of the index maps the
// kernels call (reduce_analysis.hpp's analyze, the numbers --analyze prints).
#include <doctest/doctest.h>

#include <string>

#include "01_divergence.hpp"
#include "exercise_checks.hpp"
#include "reduce_analysis.hpp"

using namespace stepwise::reduction;
using stepwise::testing::Differences;

namespace {

/// The student's table for @p scheme against analyze(@p scheme, 128), cell by cell.
void grade(Addressing scheme, const std::string& kernel) {
  const std::vector<exercises::StepCount> yours = exercises::predicted_steps(scheme);
  const TreeAnalysis model = analyze(scheme, exercises::kDivergenceBlock);
  Differences differences;
  if (yours.size() != model.steps.size()) {
    differences.add(kernel + ": " + std::to_string(yours.size()) + " steps, the tree has " +
                    std::to_string(model.steps.size()));
  }
  for (std::size_t i = 0; i < yours.size() && i < model.steps.size(); ++i) {
    const TreeStep& step = model.steps[i];
    const std::string where = kernel + ", step " + std::to_string(i + 1) + " (s = " + std::to_string(step.stride) + ")";
    differences.compare(where + ", stride", yours[i].stride, step.stride);
    differences.compare(where + ", active threads", yours[i].active_threads, step.active_threads);
    differences.compare(where + ", active warps", yours[i].active_warps, step.active_warps);
    differences.compare(where + ", divergent warps", yours[i].divergent_warps, step.divergent_warps);
  }
  differences.check();
}

}  // namespace

TEST_CASE("exercise 01-1: kernel 1 (stage 1) at 128 threads, step by step") {
  grade(Addressing::interleaved_divergent, "kernel 1");
}

TEST_CASE("exercise 01-1: kernel 3 (stage 4) at 128 threads, step by step") {
  grade(Addressing::sequential, "kernel 3");
}
