// The registry of --problem. Adding a problem is its own files (a factory `SegmentedProblem
// name_problem()`, its table and its stages) and one line here: `X(name)`.
#include "registry.hpp"

#include <stdexcept>

namespace stepwise::segmented {

/// The registered problems, in --help's order: `X(name)` for the factory `name_problem()`.
// clang-format off
#define SEGMENTED_PROBLEMS(X) \
  X(segreduce)                \
  X(segscan)                  \
  X(rle)                      \
  X(setop)
// clang-format on

#define DECLARE_PROBLEM(name) SegmentedProblem name##_problem();
SEGMENTED_PROBLEMS(DECLARE_PROBLEM)
#undef DECLARE_PROBLEM

const std::vector<SegmentedProblem>& segmented_problems() {
#define LIST_PROBLEM(name) name##_problem(),
  static const std::vector<SegmentedProblem> problems = {SEGMENTED_PROBLEMS(LIST_PROBLEM)};
#undef LIST_PROBLEM
  return problems;
}

const SegmentedProblem& find_problem(const std::string& name) {
  for (const SegmentedProblem& problem : segmented_problems())
    if (problem.name == name) return problem;
  throw std::invalid_argument("'" + name + "': not one of " + problem_names());
}

std::string problem_names() {
  std::string names;
  for (const SegmentedProblem& problem : segmented_problems()) names += (names.empty() ? "" : "|") + problem.name;
  return names;
}

}  // namespace stepwise::segmented
