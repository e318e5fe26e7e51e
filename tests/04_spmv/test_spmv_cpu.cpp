// CPU tests of chapter 04's --analyze: the numbers it prints (idle lanes, the nonzeros in stage 2's
// slice, work per thread, the merge's split and its walk item by item, as text and as JSON) on
// matrices small enough to count by hand. The matrices' own tests: test_spmv_matrix_cpu.cpp (the CSR
// core), test_spmv_generators_cpu.cpp and test_spmv_matrix_market_cpu.cpp.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "algorithm/merge_path.hpp"
#include "analysis.hpp"
#include "generators.hpp"
#include "host/data.hpp"
#include "matrix.hpp"
#include "matrix_test_support.hpp"
#include "problem.hpp"
#include "spmv.hpp"

using namespace stepwise;
using namespace stepwise::spmv;
using namespace stepwise::spmv::tests;

namespace {

/// The stages the report's sections name, as the table's traits give them.
const AnalyzedStages& table_stages() {
  static const AnalyzedStages stages = analyzed_stages(spmv_stages<float>());
  return stages;
}

}  // namespace

// --analyze ---------------------------------------------------------------------------------------

TEST_CASE("vector_lanes_for: the smallest power of two from 2 to 32 at or above the mean row length") {
  CHECK(vector_lanes_for(0.0) == 2);
  CHECK(vector_lanes_for(1.0) == 2);
  CHECK(vector_lanes_for(2.0) == 2);
  CHECK(vector_lanes_for(2.01) == 4);
  CHECK(vector_lanes_for(4.0) == 4);
  CHECK(vector_lanes_for(4.5) == 8);
  CHECK(vector_lanes_for(9.0) == 16);
  CHECK(vector_lanes_for(16.0) == 16);
  CHECK(vector_lanes_for(16.5) == 32);
  CHECK(vector_lanes_for(26.65) == 32);
  CHECK(vector_lanes_for(1000.0) == 32);
}

TEST_CASE("near_diagonal_share and columns_are_banded: stage 5's second question, counted by hand") {
  CHECK(near_diagonal_share(generate_matrix("lecture", 1)) == 1.0);        // 4 columns: all near
  CHECK(near_diagonal_share(generate_matrix("uniform:100:0", 1)) == 1.0);  // no nonzeros
  CHECK(near_diagonal_share(generate_matrix("stencil27:8x8x8", 1)) == 1.0);

  constexpr std::int32_t kBand = static_cast<std::int32_t>(kBandColumns);
  CsrMatrix wide;  // 2 x 8 kBand: row 0's diagonal is column 0, row 1's column 4 kBand
  wide.rows = 2;
  wide.cols = 8 * kBand;
  wide.offsets = {0, 3, 6};
  wide.columns = {0, kBand, kBand + 1, 3 * kBand - 1, 3 * kBand, 5 * kBand};  // near: 0, kBand | 3 kBand, 5 kBand
  wide.values.assign(6, 1.0);
  validate(wide);
  CHECK(near_diagonal_share(wide) == doctest::Approx(4.0 / 6.0));

  // Random columns over 4 Mi: about 2 kBandColumns / 4 Mi of them are near.
  const double scattered = near_diagonal_share(generate_matrix("uniform:4194304x4194304:1", 3));
  const double expected = 2.0 * static_cast<double>(kBandColumns) / 4194304.0;
  CHECK(scattered > 0.8 * expected);
  CHECK(scattered < 1.2 * expected);
  CHECK_FALSE(columns_are_banded(scattered));
  CHECK(columns_are_banded(0.9));
  CHECK_FALSE(columns_are_banded(0.8999));
  CHECK(columns_are_banded(1.0));
}

TEST_CASE("analysis of the lecture's example, counted by hand") {
  const CsrMatrix lecture = generate_matrix("lecture", 1);
  const RowLengths lengths = row_lengths(lecture);  // 2, 0, 3, 2
  CHECK(lengths.rows == 4);
  CHECK(lengths.nonzeros == 7);
  CHECK(lengths.min == 0);
  CHECK(lengths.max == 3);
  CHECK(lengths.mean == 1.75);
  CHECK(lengths.p50 == 2);
  CHECK(lengths.p90 == 3);
  CHECK(lengths.p99 == 3);
  CHECK(lengths.p999 == 3);
  CHECK(lengths.buckets == std::vector<std::int64_t>{1, 0, 3});  // empty, 1, 2-3

  // Scalar: one warp, 3 steps, 32 x 3 lane-steps for 7 nonzeros.
  const WarpWork scalar = warp_work(lecture, 1);
  CHECK(scalar.warps == 1);
  CHECK(scalar.max_warp_steps == 3);
  CHECK(scalar.slowest_warps == 1);
  CHECK(scalar.mean_warp_steps == 3.0);
  CHECK(scalar.idle_in_groups == 0.0);
  CHECK(scalar.idle_in_warps == doctest::Approx(1.0 - 7.0 / 96.0));
  CHECK(scalar.worst_warp_idle == doctest::Approx(1.0 - 7.0 / 96.0));
  CHECK(scalar.busiest_over_average == doctest::Approx(3.0 / 1.75));

  // Vector, 2 lanes: rows take 1, 1 (empty), 2, 1 steps; the groups' 10 lane-steps, the warp's 2 x 32.
  const WarpWork pairs = warp_work(lecture, 2);
  CHECK(pairs.warps == 1);
  CHECK(pairs.idle_in_groups == doctest::Approx(1.0 - 7.0 / 10.0));
  CHECK(pairs.idle_in_warps == doctest::Approx(1.0 - 7.0 / 64.0));
  CHECK(pairs.max_warp_steps == 2);
  CHECK(pairs.busiest_over_average == doctest::Approx(2.0 / 1.25));

  // A warp per row: 4 warps of one step each.
  const WarpWork whole = warp_work(lecture, 32);
  CHECK(whole.warps == 4);
  CHECK(whole.idle_in_groups == doctest::Approx(1.0 - 7.0 / 128.0));
  CHECK(whole.idle_in_warps == doctest::Approx(1.0 - 7.0 / 128.0));
  CHECK(whole.mean_warp_steps == 1.0);
  CHECK(whole.slowest_warps == 4);
  CHECK(whole.busiest_over_average == 1.0);
  CHECK(contains(invalid_argument([&] { warp_work(lecture, 3); }), "lanes per row must be 1, 2, 4, 8, 16 or 32"));

  // The merge: items nz0 nz1 END0 END1 nz2 nz3 nz4 | END2 nz5 nz6 END3, 7 per thread.
  const BalancedWork merge = balanced_work(lecture, 128, 7);
  CHECK(merge.merge_items == 11);
  CHECK(merge.threads == 2);
  CHECK(merge.tiles == 1);
  CHECK(merge.min_thread_nonzeros == 2);
  CHECK(merge.max_thread_nonzeros == 5);
  CHECK(merge.mean_thread_nonzeros == 3.5);
  CHECK(merge.rows_split_between_threads == 1);  // row 2: nz2-nz4 in thread 0, END2 in thread 1
  CHECK(merge.rows_crossing_tiles == 0);
  CHECK(merge.carries == 0);
  CHECK(merge.longest_row_tiles == 1);
  CHECK(merge_items_picture(lecture, 7) ==
        "    thread 0: nz0 nz1 END0 END1 nz2 nz3 nz4\n"
        "    thread 1: END2 nz5 nz6 END3\n");
  // Tiles of 1 x 2 items: rows 0, 2 and 3 cross a tile boundary, once each.
  const BalancedWork small_tiles = balanced_work(lecture, 1, 2);
  CHECK(small_tiles.threads == 6);
  CHECK(small_tiles.tiles == 6);
  CHECK(small_tiles.min_thread_nonzeros == 0);  // thread 1: END0 END1
  CHECK(small_tiles.max_thread_nonzeros == 2);
  CHECK(small_tiles.rows_split_between_threads == 3);
  CHECK(small_tiles.rows_crossing_tiles == 3);
  CHECK(small_tiles.carries == 3);
  CHECK(small_tiles.longest_row_tiles == 2);
  CHECK(merge_items_picture(lecture, 2) ==
        "    thread 0: nz0 nz1\n    thread 1: END0 END1\n    thread 2: nz2 nz3\n"
        "    thread 3: nz4 END2\n    thread 4: nz5 nz6\n    thread 5: END3\n");

  const std::string report = analyze(lecture, AnalysisShapes{}, table_stages());
  CAPTURE(report);
  for (const char* line :
       {"chapter 04 spmv --analyze: lecture 4x4", "4 rows x 4 columns, 7 nonzeros",
        "row lengths: min 0, mean 1.75, max 3; p50 2, p90 3, p99 3, p99.9 3", "               2-3           3   75.0%",
        "idle lane-steps: 92.7%", "busiest thread / average thread: 3 / 1.75 = 1.71x",
        "Stage 3, vector: 2 lanes per row (from the mean row length 1.75), 16 rows per warp",
        "idle lane-steps inside the groups: 30.0%; counting each warp's wait: 89.1%",
        "with a whole warp per row (32 lanes): 94.5% idle", "nonzeros per thread: min 2, mean 3.50, max 5",
        "rows split between threads: 1", "thread 0: nz0 nz1 END0 END1 nz2 nz3 nz4", "stage 1 scalar            1.71x",
        "stage 3 vector (2 lanes)  1.60x"})
    CHECK_MESSAGE(contains(report, line), line);
  CHECK(report.find(" \n") == std::string::npos);  // no trailing spaces
  AnalysisShapes four_lanes;
  four_lanes.vector_lanes = 4;
  CHECK(contains(analyze(lecture, four_lanes, table_stages()), "4 lanes per row (as asked), 8 rows per warp"));
}

TEST_CASE("analysis: a partly empty last warp, equal rows, no rows, bad shapes") {
  // 33 rows of one nonzero: two warps of one step, the second with one busy lane of 32.
  const WarpWork two_warps = warp_work(generate_matrix("uniform:33:1", 1), 1);
  CHECK(two_warps.warps == 2);
  CHECK(two_warps.idle_in_warps == doctest::Approx(1.0 - 33.0 / 64.0));
  CHECK(two_warps.worst_warp_idle == doctest::Approx(31.0 / 32.0));
  CHECK(two_warps.slowest_warps == 2);

  const CsrMatrix equal = generate_matrix("uniform:1000:16", 2);
  const WarpWork scalar = warp_work(equal, 1);
  CHECK(scalar.idle_in_warps == doctest::Approx(1.0 - 16000.0 / (32 * 32 * 16)));  // 32 warps, the last of 8 rows
  const WarpWork sixteen = warp_work(equal, 16);
  CHECK(sixteen.idle_in_groups == 0.0);
  CHECK(sixteen.idle_in_warps == 0.0);
  const std::string report = analyze(equal, AnalysisShapes{}, table_stages());
  CAPTURE(report);
  CHECK(contains(report, "Stage 3, vector: 16 lanes per row (from the mean row length 16.00), 2 rows per warp"));
  CHECK(contains(report, "idle lane-steps inside the groups: 0.0%; counting each warp's wait: 0.0%"));
  CHECK(contains(report, "busiest thread / average thread: 16 / 16.00 = 1.00x"));
  CHECK(contains(report, "17,000 merge items (1,000 rows + 16,000 nonzeros): 2,429 threads, 19 tiles"));

  const std::string long_row = analyze(generate_matrix("huge-row:10000:2:100000", 3), AnalysisShapes{}, table_stages());
  CAPTURE(long_row);
  // Row 5,000's 100,001 items from merge position 15,000: tiles 16 to 128 of 896 items.
  CHECK(contains(long_row, "the longest row's items touch 113 tiles"));

  CsrMatrix no_rows;
  no_rows.offsets = {0};
  no_rows.cols = 5;
  no_rows.description = "0 x 5";
  CHECK(contains(analyze(no_rows, AnalysisShapes{}, table_stages()), "no rows: nothing for a stage to do"));
  CHECK(balanced_work(no_rows, 128, 7).threads == 0);
  CHECK(merge_items_picture(no_rows, 7).empty());

  for (const AnalysisShapes& bad :
       {AnalysisShapes{100, 0, 128, 7}, AnalysisShapes{256, 3, 128, 7}, AnalysisShapes{256, 64, 128, 7},
        AnalysisShapes{256, 1, 128, 7}, AnalysisShapes{256, 0, 0, 7}, AnalysisShapes{256, 0, 128, 0}})
    CHECK_THROWS_AS(analyze(no_rows, bad, table_stages()), std::invalid_argument);
}

TEST_CASE("balanced_work's one walk over the rows is merge_path's split, thread by thread") {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  for (const char* spec : {"uniform:3000:0", "uniform:3000:1", "rmat:11:4", "huge-row:2000:3:9000", "stencil5:40x7"}) {
    CAPTURE(spec);
    const CsrMatrix matrix = generate_matrix(spec, seed);
    for (int vt : {1, 5, 7, 11}) {
      CAPTURE(vt);
      const BalancedWork work = balanced_work(matrix, 32, vt);
      const std::int64_t rows = matrix.rows, nnz = static_cast<std::int64_t>(matrix.nnz());
      const auto split = [&](std::int64_t diagonal) {
        return merge_path<Bounds::upper>(CountingIterator<std::int64_t>{0}, nnz, matrix.offsets.data() + 1, rows,
                                         diagonal, Less{});
      };
      std::int64_t least = nnz, most = 0;
      for (std::int64_t diagonal = 0; diagonal < rows + nnz; diagonal += vt) {
        const std::int64_t nonzeros = split(std::min(rows + nnz, diagonal + vt)) - split(diagonal);
        least = std::min(least, nonzeros);
        most = std::max(most, nonzeros);
      }
      CHECK(work.threads == (rows + nnz + vt - 1) / vt);
      CHECK(work.min_thread_nonzeros == least);
      CHECK(work.max_thread_nonzeros == most);
    }
  }
}

TEST_CASE("analyzed_stages: every section of the report names one kernel stage of the table, by its trait") {
  for (const StageLabel& label : {table_stages().scalar, table_stages().shared_cache, table_stages().vector,
                                  table_stages().merge, table_stages().tuned}) {
    CAPTURE(label.name);
    CHECK(label.number > 0);
    const auto& table = spmv_stages<float>();
    CHECK(std::any_of(table.begin(), table.end(), [&](const SpmvStage<float>& stage) {
      return stage.number == label.number && stage.name == label.name && stage.kind == RowKind::kernel;
    }));
  }
  for (const SpmvStage<float>& stage : spmv_stages<float>())
    CHECK((stage.traits.model == StageModel::none) == (stage.kind == RowKind::library));
}

/// Checks the variant rows of @p T's table: only stage 5 has them, one per change, each after its
/// stage with its number and traits, at its shape but the tile's (stage 4's 128 x 7), and one
/// searching its tile boundaries on every call.
template <class T>
void check_variant_rows() {
  const std::vector<SpmvStage<T>> rows = with_variants(spmv_stages<T>());
  const auto tuned = std::find_if(rows.begin(), rows.end(), [](const SpmvStage<T>& row) {
    return row.traits.model == StageModel::tuned && row.variant.empty();
  });
  REQUIRE(tuned != rows.end());
  CHECK(tuned->traits.keeps_partitions);
  std::vector<std::string> changes;
  int searching = 0;
  for (auto row = std::next(tuned); row != rows.end() && !row->variant.empty(); ++row) {
    CAPTURE(row->variant);
    changes.push_back(row->variant);
    CHECK(row->number == tuned->number);
    CHECK(row->name == tuned->name);
    CHECK(row->sweep.empty());
    CHECK(row->variants.empty());
    CHECK(row->traits.model == StageModel::tuned);
    CHECK((row->launch != tuned->launch));
    if (!row->traits.keeps_partitions) ++searching;
    if (row->variant.rfind("tile ", 0) == 0)
      CHECK(row->shape == LaunchShape{128, 7, tuned->shape.blocks_per_sm});
    else
      CHECK(row->shape == tuned->shape);
  }
  CHECK(searching == 1);
  CHECK(changes.size() == 12);  // the banded path's 4 changes, the merge tile's 7 and its carries
  std::vector<std::string> distinct = changes;
  std::sort(distinct.begin(), distinct.end());
  CHECK(std::unique(distinct.begin(), distinct.end()) == distinct.end());
  const std::string tile = "tile " + std::to_string(tuned->shape.threads) + "x" + std::to_string(tuned->shape.items);
  CHECK(std::find(changes.begin(), changes.end(), tile) != changes.end());
  int with_variants_count = 0;
  for (const SpmvStage<T>& stage : spmv_stages<T>())
    if (!stage.variants.empty()) ++with_variants_count;
  CHECK(with_variants_count == 1);
  CHECK(rows.size() == spmv_stages<T>().size() + changes.size());
}

TEST_CASE("stage 5's variant rows: one per change, after their stage, with its number, traits and shape") {
  check_variant_rows<float>();
  check_variant_rows<double>();
}

TEST_CASE("slice_share: the nonzeros whose x lies in stage 2's shared slice, counted by hand") {
  // Blocks of 2 rows: rows 0-1 hold columns 0-1, rows 2-3 columns 2-3. Row 0 {0, 2}: 1 of 2;
  // row 2 {1, 2, 3}: 2 of 3; row 3 {0, 3}: 1 of 2. 4 of 7.
  const CsrMatrix lecture = generate_matrix("lecture", 1);
  CHECK(slice_share(lecture, 2) == doctest::Approx(4.0 / 7.0));
  CHECK(slice_share(lecture, 256) == 1.0);                       // one block: every column
  CHECK(slice_share(lecture, 1) == doctest::Approx(3.0 / 7.0));  // the diagonal: (0,0), (2,2), (3,3)
  CHECK(slice_share(generate_matrix("uniform:100:0", 1), 32) == 0.0);
  CHECK(contains(invalid_argument([&] { slice_share(lecture, 0); }), "threads per block must be positive"));

  // A 16 x 16 x 32 stencil with blocks of 256 rows: a block is one z-plane, whose slice holds the
  // neighbours at dz = 0, (3 x 16 - 2)^2 of each plane's (3 x 16 - 2)^2 (3 x 32 - 2) / 32 nonzeros.
  CHECK(slice_share(generate_matrix("stencil27:16x16x32", 1), 256) == doctest::Approx(32.0 / 94.0));

  // Clipped to the columns there are: 3 rows x 2 columns, blocks of 4 rows, columns 0-1 only.
  CsrMatrix narrow;
  narrow.rows = 3;
  narrow.cols = 2;
  narrow.offsets = {0, 2, 3, 4};
  narrow.columns = {0, 1, 1, 0};
  narrow.values.assign(4, 1.0);
  validate(narrow);
  CHECK(slice_share(narrow, 4) == 1.0);
  CHECK(contains(analyze(lecture, AnalysisShapes{}, table_stages()),
                 "nonzeros whose column lies in their block's slice: 100.0%"));
}

TEST_CASE("merge_walk: the lecture's merge item by item, its partial sums and carries, counted by hand") {
  const CsrMatrix lecture = generate_matrix("lecture", 1);
  // nz0 nz1 END0 END1 nz2 nz3 nz4 | END2 nz5 nz6 END3, one tile of 2 threads.
  const MergeWalk one_tile = merge_walk(lecture, 2, 7);
  CHECK(one_tile.row_ends == std::vector<std::int32_t>{2, 2, 5, 7});
  REQUIRE(one_tile.threads.size() == 2);
  REQUIRE(one_tile.tiles.size() == 1);
  const MergeThread& first = one_tile.threads[0];
  REQUIRE(first.items.size() == 7);
  CHECK((first.items[2].row_end && first.items[2].index == 0));
  CHECK((first.items[3].row_end && first.items[3].index == 1));  // the empty row: one item
  CHECK((!first.items[4].row_end && first.items[4].index == 2 && first.items[4].row == 2));
  CHECK(first.partial == PartialSum::shared);  // row 2 ends in thread 1, in the same tile
  CHECK(first.partial_row == 2);
  CHECK(first.partial_nonzeros == 3);
  const MergeThread& second = one_tile.threads[1];
  CHECK(second.diagonal == 7);
  CHECK(second.first_nonzero == 5);
  CHECK(second.first_row == 2);
  CHECK(second.items.size() == 4);
  CHECK(second.partial == PartialSum::none);  // its last item is END3
  CHECK(one_tile.tiles[0].end_row == 4);
  CHECK(one_tile.tiles[0].carry_row == -1);

  // Tiles of one thread: row 2 is still open at tile 0's end, so thread 0's piece is the tile's carry.
  const MergeWalk two_tiles = merge_walk(lecture, 1, 7);
  REQUIRE(two_tiles.tiles.size() == 2);
  CHECK(two_tiles.threads[0].partial == PartialSum::carry);
  CHECK(two_tiles.tiles[0].end_row == 2);
  CHECK(two_tiles.tiles[0].carry_row == 2);
  CHECK(two_tiles.tiles[0].carry_nonzeros == 3);
  CHECK(two_tiles.tiles[1].first_nonzero == 5);
  CHECK(two_tiles.tiles[1].first_row == 2);

  // 2 items a thread, 2 threads a tile: t0 nz0 nz1 | t1 END0 END1 || t2 nz2 nz3 | t3 nz4 END2 || t4 nz5 nz6 | t5 END3.
  const MergeWalk pairs = merge_walk(lecture, 2, 2);
  REQUIRE(pairs.threads.size() == 6);
  REQUIRE(pairs.tiles.size() == 3);
  for (std::size_t t : {0, 2, 4}) CHECK(pairs.threads[t].partial == PartialSum::shared);
  for (std::size_t t : {1, 3, 5}) CHECK(pairs.threads[t].partial == PartialSum::none);
  CHECK(pairs.threads[4].partial_row == 3);
  for (const MergeTileSpan& tile : pairs.tiles) CHECK(tile.carry_row == -1);

  CHECK(contains(invalid_argument([&] { merge_walk(lecture, 0, 7); }), "must be positive"));
  CHECK(contains(invalid_argument([&] { merge_walk(generate_matrix("uniform:40:2", 1), 2, 7); }),
                 "120 merge items, more than the 64 a walk shows"));
}

TEST_CASE("merge_walk agrees with merge_items_picture and balanced_work on small matrices") {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  for (const char* spec : {"lecture", "rmat:4:3", "rmat:4:2", "huge-row:8:3:20", "uniform:20:0", "uniform:6:5"}) {
    CAPTURE(spec);
    const CsrMatrix matrix = generate_matrix(spec, seed);
    for (int vt : {1, 3, 7}) {
      for (int threads : {1, 2, 3}) {
        CAPTURE(vt);
        CAPTURE(threads);
        const MergeWalk walk = merge_walk(matrix, threads, vt);
        std::string picture;
        std::int64_t nonzeros = 0, ends = 0;
        for (std::size_t t = 0; t < walk.threads.size(); ++t) {
          picture += "    thread " + std::to_string(t) + ":";
          for (const MergeItem& item : walk.threads[t].items) {
            picture += (item.row_end ? " END" : " nz") + std::to_string(item.index);
            if (item.row_end) {
              CHECK(item.index == ends++);
            } else {
              CHECK(item.index == nonzeros++);
              CHECK(item.row == ends);  // a nonzero belongs to the row whose end comes next
            }
          }
          picture += "\n";
        }
        CHECK(nonzeros == static_cast<std::int64_t>(matrix.nnz()));
        CHECK(ends == matrix.rows);
        CHECK(picture == merge_items_picture(matrix, vt));
        const BalancedWork work = balanced_work(matrix, threads, vt);
        CHECK(static_cast<std::int64_t>(walk.tiles.size()) == work.tiles);
        CHECK(std::count_if(walk.tiles.begin(), walk.tiles.end(),
                            [](const MergeTileSpan& tile) { return tile.carry_row >= 0; }) == work.carries);
      }
    }
  }
}

TEST_CASE("analyze_json: the report as one document, with the merge walk of a small matrix") {
  const CsrMatrix lecture = generate_matrix("lecture", 1);
  const nlohmann::json document = nlohmann::json::parse(analyze_json(lecture, AnalysisShapes{}, {"a note"}));
  CHECK(document["analysis"] == "spmv-merge");
  CHECK(document["chapter"] == "04");
  CHECK(document["matrix"]["rows"] == 4);
  CHECK(document["matrix"]["nonzeros"] == 7);
  CHECK(document["row_lengths"]["buckets"] == nlohmann::json::array({1, 0, 3}));
  CHECK(document["notes"] == nlohmann::json::array({"a note"}));
  const nlohmann::json& stages = document["stages"];
  CHECK(stages["scalar"]["idle_in_warps"].get<double>() == doctest::Approx(1.0 - 7.0 / 96.0));
  CHECK(stages["shared_cache"]["slice_share"] == 1.0);
  CHECK(stages["vector"]["lanes_per_row"] == 2);
  CHECK(stages["vector"]["lanes_from_mean"] == true);
  CHECK(stages["merge"]["threads"] == 2);
  CHECK(stages["merge"]["rows_split_between_threads"] == 1);
  CHECK(stages["tuned"]["kernel"] == "short-rows");
  const nlohmann::json& walk = document["merge_walk"];
  CHECK(walk["threads_per_tile"] == 2);
  CHECK(walk["items_per_thread"] == 7);
  CHECK(walk["row_ends"] == nlohmann::json::array({2, 2, 5, 7}));
  CHECK(walk["threads"][0]["items"][3] == nlohmann::json({{"kind", "end"}, {"index", 1}, {"row", 1}}));
  CHECK(walk["threads"][0]["partial"] == "shared");
  CHECK(walk["threads"][1]["partial"] == "none");
  CHECK(walk["tiles"][0]["carry_row"] == -1);

  const nlohmann::json large = nlohmann::json::parse(analyze_json(generate_matrix("uniform:1000:16", 2), {}, {}));
  CHECK(large["merge_walk"].is_null());
  CHECK(large["stages"]["merge"]["tiles"] == 19);
  CHECK(large["stages"]["tuned"]["kernel"] == "vector");  // regular rows, columns within kBandColumns of the diagonal

  CsrMatrix no_rows;
  no_rows.offsets = {0};
  no_rows.cols = 5;
  const nlohmann::json empty = nlohmann::json::parse(analyze_json(no_rows, {}, {}));
  CHECK(empty["stages"].is_null());
  CHECK(empty["merge_walk"].is_null());
  AnalysisShapes bad;
  bad.walk_threads = 0;
  CHECK_THROWS_AS(analyze_json(lecture, bad, {}), std::invalid_argument);
}

// What the checks prove ---------------------------------------------------------------------------

TEST_CASE("--values integer: the exact check refuses y without one of a long row's carries; the float bound does not") {
  // The negative control of the GPU tests' exact checks: y right everywhere but for one carry of
  // stage 4's tiles, the partial sum a tile leaves for a row still open at its end.
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  CsrMatrix matrix = generate_matrix("huge-row:3000:3:200000", seed);
  const std::int64_t bound = make_integer_valued(matrix, sizeof(float), seed);
  REQUIRE(bound == 8);  // 200000 x 8^2 <= 2^24
  const std::vector<double> x = make_integer_x(static_cast<std::size_t>(matrix.cols), bound, seed);
  std::vector<double> want, scale;
  spmv_reference<float>(matrix, x, want, &scale);

  // Stage 4's tiles at its default shape, cut where merge_path cuts them (as the partition
  // kernel does): the first tile that ends inside the long row with a nonzero carry.
  const auto& table = spmv_stages<float>();
  const auto merge = std::find_if(table.begin(), table.end(), [](const SpmvStage<float>& stage) {
    return stage.traits.model == StageModel::merge;
  });
  REQUIRE(merge != table.end());
  const std::int64_t tile = static_cast<std::int64_t>(merge->shape.threads) * merge->shape.items;
  const std::int64_t rows = matrix.rows, nnz = static_cast<std::int64_t>(matrix.nnz());
  const auto nonzeros_before = [&](std::int64_t diagonal) {
    return merge_path<Bounds::upper>(CountingIterator<std::int64_t>{0}, nnz, matrix.offsets.data() + 1, rows,
                                     std::min(diagonal, rows + nnz), Less{});
  };
  const std::int32_t long_row = matrix.rows / 2;
  REQUIRE(matrix.row_length(long_row) == 200000);
  double carry = 0.0;
  std::int64_t carrying_tiles = 0;
  for (std::int64_t first = 0; first < rows + nnz && carry == 0.0; first += tile) {
    const std::int64_t end = nonzeros_before(first + tile);
    if ((first + tile) - end != long_row || end <= matrix.offsets[long_row]) continue;  // not open at the tile's end
    ++carrying_tiles;
    for (std::int64_t j = std::max<std::int64_t>(nonzeros_before(first), matrix.offsets[long_row]); j < end; ++j)
      carry += matrix.values[j] * x[matrix.columns[j]];
  }
  REQUIRE(carrying_tiles > 0);
  REQUIRE(carry != 0.0);

  std::vector<float> y(want.begin(), want.end());  // exact: float holds every one of these integers
  REQUIRE(check_y(y, want, scale, ValueKind::integer).passed);
  y[long_row] -= static_cast<float>(carry);  // the carry dropped (still an integer float holds exactly)
  const Check exact = check_y(y, want, scale, ValueKind::integer);
  CHECK_FALSE(exact.passed);
  CHECK(contains(exact.detail, "1 of 3000 elements differ; first at index 1500"));
  // The float bound grows with the row, 2^-24 x (len + 2) x sum |a x|: on a row of 200,000 it is
  // wider than a whole tile's carry, so the same y passes it.
  CHECK(std::abs(carry) < tolerance<float>() * scale[long_row]);
  CHECK(check_y(y, want, scale, ValueKind::real).passed);
}

TEST_CASE("matrix_notes: the exact check with --values integer, else the bound and the rows that repeat their bits") {
  CsrMatrix matrix = generate_matrix("lecture", 1);
  const std::vector<std::string> real = matrix_notes(matrix, false, 0);
  const auto any_note = [](const std::vector<std::string>& notes, const std::string& part) {
    return std::any_of(notes.begin(), notes.end(), [&](const std::string& note) { return contains(note, part); });
  };
  CHECK(any_note(real, "|y - want| <= 2^-24 x (row length + 2)"));
  CHECK(any_note(real, "the same bits from run to run: "));
  for (const SpmvStage<float>& stage : spmv_stages<float>())
    if (stage.kind == RowKind::library) CHECK(any_note(real, stage.name));
  REQUIRE(make_integer_valued(matrix, sizeof(float), 1) == 8);
  const std::vector<std::string> integer = matrix_notes(matrix, false, 8);
  CHECK(any_note(integer, "integers in [-8, 8] without 0, and the longest row x 8^2 = 192 <= 2^24"));
  CHECK(any_note(integer, "must equal the double-precision reference exactly"));
  CHECK_FALSE(any_note(integer, "|y - want|"));
  CHECK(any_note(matrix_notes(matrix, true, 8), "<= 2^53, so every partial sum of a row is an integer float64"));
}
