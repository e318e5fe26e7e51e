// The grader of exercise 04-3 (chapters/04_spmv/exercises/README.md): the student's tiles of the merge
// and their carries, against the chapter's merge walk (analysis.hpp's merge_walk, the tiles
// --analyze --format json draws) on small matrices, and on larger ones against the kernels' search
// (merge_path<Bounds::upper>, common/algorithm/merge_path.hpp) and the counts of balanced_work.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <string>

#include "03_carries.hpp"
#include "algorithm/merge_path.hpp"
#include "analysis.hpp"
#include "exercise_checks.hpp"
#include "spmv_inputs.hpp"

using namespace stepwise;
using spmv::CsrMatrix;
using spmv::exercises::TileSpan;
using stepwise::testing::Differences;

namespace {

void compare_tile(Differences& differences, const std::string& where, const TileSpan& yours,
                  const spmv::MergeTileSpan& model) {
  differences.compare(where + ", first_row", yours.first_row, model.first_row);
  differences.compare(where + ", first_nonzero", yours.first_nonzero, model.first_nonzero);
  differences.compare(where + ", carry_row", yours.carry_row, model.carry_row);
  differences.compare(where + ", carry_nonzeros", yours.carry_nonzeros, model.carry_nonzeros);
}

std::string shape(int threads, int items) {
  return ", tiles of " + std::to_string(threads) + " x " + std::to_string(items);
}

}  // namespace

TEST_CASE("exercise 04-3: the merge-walk diagram, huge-row:8:3:20 in tiles of 2 x 7") {
  const CsrMatrix matrix = spmv::generate_matrix("huge-row:8:3:20", 20261121);
  const std::vector<TileSpan> yours = spmv::exercises::tile_spans(matrix.offsets, 2, 7);
  Differences differences;
  differences.compare("the number of tiles", yours.size(), std::size_t{4});
  // `chapter_04_spmv --analyze --matrix huge-row:8:3:20 --format json`, merge_walk.tiles.
  const TileSpan drawn[] = {{0, 0, 3, 2}, {3, 11, 4, 12}, {4, 24, 6, 1}, {6, 36, -1, 0}};
  const spmv::MergeWalk walk = spmv::merge_walk(matrix, 2, 7);
  for (std::size_t t = 0; t < yours.size() && t < 4; ++t) {
    const std::string where = "tile " + std::to_string(t);
    differences.compare(where + ", first_row", yours[t].first_row, drawn[t].first_row);
    differences.compare(where + ", first_nonzero", yours[t].first_nonzero, drawn[t].first_nonzero);
    differences.compare(where + ", carry_row", yours[t].carry_row, drawn[t].carry_row);
    differences.compare(where + ", carry_nonzeros", yours[t].carry_nonzeros, drawn[t].carry_nonzeros);
    compare_tile(differences, where + ", against merge_walk", yours[t], walk.tiles[t]);
  }
  differences.check();
}

TEST_CASE("exercise 04-3: every small matrix at 24 tile shapes, against merge_walk") {
  Differences differences;
  for (const CsrMatrix& matrix : spmv::grading::spmv_matrices(true))
    for (int threads : {1, 2, 3})
      for (int items : {1, 2, 3, 4, 5, 7, 8, 64}) {
        const spmv::MergeWalk walk = spmv::merge_walk(matrix, threads, items);
        const std::vector<TileSpan> yours = spmv::exercises::tile_spans(matrix.offsets, threads, items);
        const std::string where = matrix.description + shape(threads, items);
        differences.compare(where + ", the number of tiles", yours.size(), walk.tiles.size());
        for (std::size_t t = 0; t < yours.size() && t < walk.tiles.size(); ++t)
          compare_tile(differences, where + ", tile " + std::to_string(t), yours[t], walk.tiles[t]);
      }
  differences.check();
}

TEST_CASE("exercise 04-3: larger matrices, against the kernels' search and balanced_work's carries") {
  Differences differences;
  for (const CsrMatrix& matrix : spmv::grading::spmv_matrices(false))
    for (const auto& [threads, items] : {std::pair{128, 7}, std::pair{256, 5}, std::pair{32, 3}, std::pair{3, 11}}) {
      const std::vector<TileSpan> yours = spmv::exercises::tile_spans(matrix.offsets, threads, items);
      const spmv::BalancedWork work = spmv::balanced_work(matrix, threads, items);
      const std::string where = matrix.description + shape(threads, items);
      differences.compare(where + ", the number of tiles", static_cast<std::int64_t>(yours.size()), work.tiles);
      std::int64_t carries = 0;
      std::set<std::int64_t> carry_rows;
      const std::int64_t rows = matrix.rows, nnz = static_cast<std::int64_t>(matrix.nnz());
      int shown = 0;
      for (std::size_t t = 0; t < yours.size(); ++t) {
        if (yours[t].carry_row >= 0) {
          ++carries;
          carry_rows.insert(yours[t].carry_row);
        }
        const std::int64_t diagonal = static_cast<std::int64_t>(t) * threads * items;
        const std::int64_t split = merge_path<Bounds::upper>(CountingIterator<std::int64_t>{0}, nnz,
                                                             matrix.offsets.data() + 1, rows, diagonal, Less{});
        if (shown < 3) {  // the first few wrong tiles, not all
          if (yours[t].first_nonzero != split || yours[t].first_row != diagonal - split) ++shown;
          differences.compare(where + ", tile " + std::to_string(t) + ", first_nonzero", yours[t].first_nonzero, split);
          differences.compare(where + ", tile " + std::to_string(t) + ", first_row", yours[t].first_row,
                              diagonal - split);
        }
      }
      differences.compare(where + ", tiles with a carry", carries, work.carries);
      differences.compare(where + ", rows crossing a tile boundary", static_cast<std::int64_t>(carry_rows.size()),
                          work.rows_crossing_tiles);
    }
  differences.check();
}
