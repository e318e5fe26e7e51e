// The grader of exercise 04-1 (chapters/04_spmv/exercises/README.md): the student's steps of each warp
// and idle lane-steps, against the chapter's model of the warps (analysis.hpp's warp_work, what
// --analyze prints for stages 1 and 3), on the whole matrix and warp by warp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "01_warps.hpp"
#include "analysis.hpp"
#include "exercise_checks.hpp"
#include "host/report.hpp"
#include "spmv_inputs.hpp"

using namespace stepwise;
using spmv::CsrMatrix;
using spmv::exercises::WarpSteps;
using stepwise::testing::Differences;

namespace {

/// The rows [first, last) of @p matrix as a matrix of their own.
CsrMatrix rows_of(const CsrMatrix& matrix, std::int64_t first, std::int64_t last) {
  CsrMatrix part;
  part.rows = static_cast<std::int32_t>(last - first);
  part.cols = matrix.cols;
  const std::int32_t base = matrix.offsets[static_cast<std::size_t>(first)];
  for (std::int64_t row = first; row <= last; ++row)
    part.offsets.push_back(matrix.offsets[static_cast<std::size_t>(row)] - base);
  part.columns.assign(static_cast<std::size_t>(part.offsets.back()), 0);
  part.values.assign(part.columns.size(), 1.0);
  return part;
}

/// Compares @p yours with warp_work on @p matrix and, warp by warp, on each warp's rows.
void compare_warps(Differences& differences, const std::string& name, const CsrMatrix& matrix, int lanes,
                   const WarpSteps& yours) {
  const spmv::WarpWork model = spmv::warp_work(matrix, lanes);
  const std::string where = name + ", " + std::to_string(lanes) + (lanes == 1 ? " lane" : " lanes") + " a row";
  differences.compare(where + ", warps", static_cast<std::int64_t>(yours.steps.size()), model.warps);
  if (static_cast<std::int64_t>(yours.steps.size()) != model.warps) return;
  std::int64_t total = 0, slowest = 0, slowest_warps = 0;
  for (std::int64_t steps : yours.steps) {
    total += steps;
    if (steps > slowest) slowest_warps = 0;
    slowest = std::max(slowest, steps);
    if (steps == slowest) ++slowest_warps;
  }
  differences.compare(where + ", the slowest warp's steps", slowest, model.max_warp_steps);
  differences.compare(where + ", warps that take them", slowest_warps, model.slowest_warps);
  const double idle = total > 0 ? static_cast<double>(yours.idle_lane_steps) / static_cast<double>(32 * total) : 0.0;
  differences.compare(where + ", idle lane-steps (% of all)", format_fixed(100.0 * idle, 6),
                      format_fixed(100.0 * model.idle_in_warps, 6));
  const std::int64_t rows_per_warp = 32 / lanes;
  int shown = 0;
  for (std::int64_t warp = 0; warp < model.warps && shown < 3; ++warp) {
    const std::int64_t first = warp * rows_per_warp;
    const std::int64_t last = std::min<std::int64_t>(matrix.rows, first + rows_per_warp);
    const std::int64_t steps = spmv::warp_work(rows_of(matrix, first, last), lanes).max_warp_steps;
    if (yours.steps[static_cast<std::size_t>(warp)] != steps) ++shown;  // the first few wrong warps, not all
    differences.compare(where + ", warp " + std::to_string(warp) + " (rows " + std::to_string(first) + " .. " +
                            std::to_string(last - 1) + "), steps",
                        yours.steps[static_cast<std::size_t>(warp)], steps);
  }
}

}  // namespace

TEST_CASE("exercise 04-1: the lecture's matrix at 1, 2 and 32 lanes a row") {
  const CsrMatrix lecture = spmv::generate_matrix("lecture", 1);
  Differences differences;
  // Rows of 2, 0, 3 and 2 nonzeros: one warp of 3 steps; one of 2; four of one step.
  const struct {
    int lanes;
    std::vector<std::int64_t> steps;
    std::int64_t idle;
  } expected[] = {{1, {3}, 96 - 7}, {2, {2}, 64 - 7}, {32, {1, 1, 1, 1}, 128 - 7}};
  for (const auto& want : expected) {
    const WarpSteps yours = spmv::exercises::warp_steps(lecture.offsets, want.lanes);
    const std::string where = std::to_string(want.lanes) + (want.lanes == 1 ? " lane" : " lanes") + " a row";
    differences.compare(where + ", warps", yours.steps.size(), want.steps.size());
    for (std::size_t w = 0; w < yours.steps.size() && w < want.steps.size(); ++w)
      differences.compare(where + ", warp " + std::to_string(w) + ", steps", yours.steps[w], want.steps[w]);
    differences.compare(where + ", idle lane-steps", yours.idle_lane_steps, want.idle);
    compare_warps(differences, "the lecture's matrix", lecture, want.lanes, yours);
  }
  differences.check();
}

TEST_CASE("exercise 04-1: every matrix at every group size, against warp_work") {
  Differences differences;
  for (const CsrMatrix& matrix : spmv::grading::spmv_matrices(false))
    for (int lanes : {1, 2, 4, 8, 16, 32})
      compare_warps(differences, matrix.description, matrix, lanes, spmv::exercises::warp_steps(matrix.offsets, lanes));
  differences.check();
}
