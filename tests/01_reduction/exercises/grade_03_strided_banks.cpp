// The grader of exercise 01-3 (chapters/01_reduction/exercises/README.md): the student's closed form
// of kernel 2's worst bank conflict, against the chapter's replay of the index map stage 3 calls
// (reduce_analysis.hpp's analyze), at every stride of every block size the stages accept.
#include <doctest/doctest.h>

#include <string>

#include "03_strided_banks.hpp"
#include "exercise_checks.hpp"
#include "reduce_analysis.hpp"
#include "reduction.hpp"

using namespace stepwise::reduction;
using stepwise::testing::Differences;

TEST_CASE("exercise 01-3: kernel 2's worst conflict at every stride of every block size") {
  Differences differences;
  for (int block : Blocks::values()) {
    const TreeAnalysis model = analyze(Addressing::interleaved_strided, static_cast<unsigned>(block));
    for (const TreeStep& step : model.steps) {
      differences.compare(std::to_string(block) + " threads, s = " + std::to_string(step.stride),
                          exercises::strided_conflict_degree(step.stride, static_cast<unsigned>(block)),
                          step.conflict_degree);
    }
  }
  differences.check();
}

TEST_CASE("exercise 01-3: the README's numbers, 8-way at 256 threads and 32-way at 1024") {
  Differences differences;
  differences.compare("256 threads, s = 4", exercises::strided_conflict_degree(4, 256), 8u);
  differences.compare("1024 threads, s = 16", exercises::strided_conflict_degree(16, 1024), 32u);
  differences.compare("256 threads, s = 128", exercises::strided_conflict_degree(128, 256), 1u);
  differences.check();
}
