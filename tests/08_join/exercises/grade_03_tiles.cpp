// The grader of exercise 08-3 (chapters/08_join/exercises/README.md): the student's tiles of the
// expansion, against the chapter's (analysis.hpp's expansion_tiles: Merge Path at each tile boundary,
// ties taking the offset, as the expansion's partition kernel cuts them), the tiles --analyze prints for
// the talk's walk-through first.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "03_tiles.hpp"
#include "exercise_checks.hpp"
#include "join_inputs.hpp"

using namespace stepwise::join;
using stepwise::testing::Differences;

namespace {

void compare(Differences& differences, const std::string& name, const std::vector<std::int32_t>& offsets, int rows,
             int spacing) {
  const std::vector<exercises::RowTile> yours = exercises::expansion_tiles(offsets, rows, spacing);
  const std::vector<ExpansionTile> model = expansion_tiles(offsets, rows, spacing);
  const std::string where = name + ", tiles of " + std::to_string(spacing) + " steps";
  differences.compare(where + ", the number of tiles", yours.size(), model.size());
  for (std::size_t t = 0; t < yours.size() && t < model.size(); ++t) {
    const std::string tile = where + ", tile " + std::to_string(t);
    differences.compare(tile + ", rows_begin", yours[t].rows_begin, model[t].rows_begin);
    differences.compare(tile + ", rows_end", yours[t].rows_end, model[t].rows_end);
    differences.compare(tile + ", objects_begin", yours[t].objects_begin, model[t].objects_begin);
    differences.compare(tile + ", objects_end", yours[t].objects_end, model[t].objects_end);
  }
}

/// One offset per object of @p columns (the scan without its total) and the row total.
std::vector<std::int32_t> object_offsets(const JoinColumns& columns) {
  return std::vector<std::int32_t>(columns.offsets.begin(), columns.offsets.end() - 1);
}

}  // namespace

TEST_CASE("exercise 08-3: the talk's walk-through in tiles of 2 x 3, as --analyze prints them") {
  const JoinColumns columns = join_columns(talk_inner_input(), JoinKind::inner);
  // The inner join's objects are A's 9 rows and B's 9, which emit nothing: the walk-through merges A's offsets.
  const std::vector<std::int32_t> offsets(columns.offsets.begin(), columns.offsets.begin() + 9);
  const std::vector<exercises::RowTile> yours = exercises::expansion_tiles(offsets, 15, 6);
  // `chapter_08_join --analyze`: "tile 0: output rows [0, 4), A rows [0, 2)" and so on.
  const exercises::RowTile printed[] = {{0, 4, 0, 2}, {4, 7, 2, 5}, {7, 11, 5, 7}, {11, 15, 7, 9}};
  Differences differences;
  differences.compare("the number of tiles", yours.size(), std::size_t{4});
  for (std::size_t t = 0; t < yours.size() && t < 4; ++t) {
    const std::string where = "tile " + std::to_string(t);
    differences.compare(where + ", rows_begin", yours[t].rows_begin, printed[t].rows_begin);
    differences.compare(where + ", rows_end", yours[t].rows_end, printed[t].rows_end);
    differences.compare(where + ", objects_begin", yours[t].objects_begin, printed[t].objects_begin);
    differences.compare(where + ", objects_end", yours[t].objects_end, printed[t].objects_end);
  }
  differences.check();
  CHECK(analysis_text().find("tile 2: output rows [7, 11), A rows [5, 7)") != std::string::npos);
}

TEST_CASE("exercise 08-3: every join of every input at tile sizes 1 to 33 and larger than the merge") {
  Differences differences;
  for (const grading::NamedInput& named : grading::join_inputs()) {
    for (JoinKind kind : grading::join_kinds()) {
      const JoinColumns columns = join_columns(named.input, kind);
      const std::vector<std::int32_t> offsets = object_offsets(columns);
      for (int spacing : {1, 2, 5, 6, 7, 33, 100000})
        compare(differences, named.name + ", " + to_string(kind) + " join", offsets, columns.offsets.back(), spacing);
    }
  }
  compare(differences, "8 objects of 1,000 rows", {0, 1000, 2000, 3000, 4000, 5000, 6000, 7000}, 8000, 2816);
  compare(differences, "1,000 objects of no row, then one of 5", std::vector<std::int32_t>(1001, 0), 5, 2816);
  differences.check();
}
