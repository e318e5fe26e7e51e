// The grader of exercise 03-2 (chapters/03_merge/exercises/README.md): the student's tiles of a merge,
// against the ranges stage 3's blocks take (merge_path at each tile boundary, then tile_merge_range,
// common/algorithm/merge_path.hpp), against the merge itself, and against the tiles --analyze prints.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "02_tiles.hpp"
#include "algorithm/merge_path.hpp"
#include "analysis.hpp"
#include "exercise_checks.hpp"
#include "merge_inputs.hpp"

using namespace stepwise;
using merge::exercises::TileRange;
using stepwise::testing::Differences;

namespace {

/// Tile @p t of @p input cut every @p nv outputs, as the chapter's kernels find it.
MergeRange<std::int64_t> model_tile(const merge::grading::MergeInput& input, std::int64_t nv, std::int64_t t) {
  const std::int64_t na = static_cast<std::int64_t>(input.a.size());
  const std::int64_t nb = static_cast<std::int64_t>(input.b.size());
  const std::int64_t first = t * nv;
  const std::int64_t last = std::min(first + nv, na + nb);
  const std::int64_t begin = merge_path(input.a.data(), na, input.b.data(), nb, first, Less{});
  const std::int64_t end = merge_path(input.a.data(), na, input.b.data(), nb, last, Less{});
  return tile_merge_range(na, nb, t, nv, begin, end);
}

void compare_tile(Differences& differences, const std::string& where, const TileRange& yours,
                  const MergeRange<std::int64_t>& model) {
  differences.compare(where + ", a_begin", yours.a_begin, static_cast<std::size_t>(model.a_begin));
  differences.compare(where + ", a_end", yours.a_end, static_cast<std::size_t>(model.a_end));
  differences.compare(where + ", b_begin", yours.b_begin, static_cast<std::size_t>(model.b_begin));
  differences.compare(where + ", b_end", yours.b_end, static_cast<std::size_t>(model.b_end));
}

}  // namespace

TEST_CASE("exercise 03-2: the tiles --analyze prints, NT x VT = 2 x 3") {
  const std::vector<int> a = {1, 2, 2, 4, 5, 5, 7, 8, 9, 9};
  const std::vector<int> b = {2, 3, 5, 5, 6, 9, 10, 11};
  const std::vector<TileRange> yours = merge::exercises::tile_ranges(a, b, 6);
  Differences differences;
  differences.compare("the number of tiles", yours.size(), std::size_t{3});
  // `chapter_03_merge --analyze`: "tile 0: diagonals 0 .. 6, A[0, 4), B[0, 2)" and so on.
  const TileRange printed[] = {{0, 4, 0, 2}, {4, 7, 2, 5}, {7, 10, 5, 8}};
  for (std::size_t t = 0; t < yours.size() && t < 3; ++t) {
    const std::string where = "tile " + std::to_string(t);
    differences.compare(where + ", a_begin", yours[t].a_begin, printed[t].a_begin);
    differences.compare(where + ", a_end", yours[t].a_end, printed[t].a_end);
    differences.compare(where + ", b_begin", yours[t].b_begin, printed[t].b_begin);
    differences.compare(where + ", b_end", yours[t].b_end, printed[t].b_end);
  }
  differences.check();
  CHECK(merge::merge_path_picture(a, b, 2, 3).find("tile 1: diagonals 6 .. 12, A[4, 7), B[2, 5)") != std::string::npos);
}

TEST_CASE("exercise 03-2: every merge at tile sizes 1 to 20 and larger than the merge, against the kernels' ranges") {
  Differences differences;
  for (const merge::grading::MergeInput& input : merge::grading::merge_inputs()) {
    const std::int64_t n = static_cast<std::int64_t>(input.a.size() + input.b.size());
    for (std::int64_t nv : {1, 2, 3, 5, 6, 7, 11, 16, 20, 1000}) {
      const std::vector<TileRange> yours =
          merge::exercises::tile_ranges(input.a, input.b, static_cast<std::size_t>(nv));
      const std::int64_t tiles = (n + nv - 1) / nv;
      const std::string where = input.name + ", NV = " + std::to_string(nv);
      differences.compare(where + ", the number of tiles", yours.size(), static_cast<std::size_t>(tiles));
      for (std::int64_t t = 0; t < tiles && t < static_cast<std::int64_t>(yours.size()); ++t)
        compare_tile(differences, where + ", tile " + std::to_string(t), yours[t], model_tile(input, nv, t));
    }
  }
  differences.check();
}

TEST_CASE("exercise 03-2: each tile holds the keys the merge puts in its outputs") {
  Differences differences;
  for (const merge::grading::MergeInput& input : merge::grading::merge_inputs()) {
    const std::vector<merge::PathStep> steps = merge::merge_steps(input.a, input.b);
    const std::size_t nv = 7;
    const std::vector<TileRange> yours = merge::exercises::tile_ranges(input.a, input.b, nv);
    for (std::size_t t = 0; t < yours.size(); ++t) {
      std::size_t from_a = 0;
      std::size_t from_b = 0;
      for (std::size_t d = t * nv; d < steps.size() && d < (t + 1) * nv; ++d) (steps[d].from_a ? from_a : from_b)++;
      const std::string where = input.name + ", NV = 7, tile " + std::to_string(t);
      differences.compare(where + ", A keys", yours[t].a_end - yours[t].a_begin, from_a);
      differences.compare(where + ", B keys", yours[t].b_end - yours[t].b_begin, from_b);
    }
  }
  differences.check();
}
