/// @file analysis.hpp
/// What `--analyze` prints, without a GPU: the matrix's row lengths (statistics and a log2
/// histogram), then what each stage of the table makes of them: how many lanes of the scalar
/// stage's warps sit idle while a warp waits for its longest row, how many nonzeros find x in
/// the shared-memory slice of stage 2, how many of the vector stage's lanes idle in a row's
/// group and in its warp, and how the merge-based stages split rows and nonzeros into equal
/// shares (the Merge Path of common/algorithm/merge_path.hpp, the very search the kernels run), item by
/// item for a small matrix. As text, or as JSON for tools/plot's merge-walk diagram.
/// O(rows + nonzeros), fast at 100 million nonzeros. Host code only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "matrix.hpp"

namespace stepwise::spmv {

/// Which section of the --analyze report tells what a stage makes of the matrix (a stage's trait,
/// set in its own file).
enum class StageModel {
  none,          ///< no section: a library row
  scalar,        ///< a thread per row (warp_work with 1 lane)
  shared_cache,  ///< a thread per row with its block's slice of x in shared memory (slice_share)
  vector,        ///< a group of lanes per row (warp_work)
  merge,         ///< the merge of row ends and nonzeros cut into equal shares (balanced_work)
  tuned,         ///< picks its kernel by the matrix (rows_are_regular, columns_are_banded)
};

/// How the report names a stage: its number and name in the table.
struct StageLabel {
  int number = 0;
  std::string name;
};

/// The stages the text report's sections describe, one per model, as the table numbers and names
/// them (spmv.hpp's analyzed_stages reads them from the table's traits).
struct AnalyzedStages {
  StageLabel scalar, shared_cache, vector, merge, tuned;
};

/// The shapes --analyze assumes for each stage: the table's defaults unless told otherwise.
struct AnalysisShapes {
  int scalar_threads = 256;    ///< stages 1 and 2: threads per block (warps of 32 consecutive rows)
  int vector_lanes = 0;        ///< stage 3: lanes per row, 2 to 32; 0: vector_lanes_for(the mean row length)
  int balanced_threads = 128;  ///< stages 4 and 5: NT, threads per tile
  int balanced_items = 7;      ///< stages 4 and 5: VT, merge items per thread
  /// The tiles of the merge walk that `--analyze --format json` draws for a small matrix: a
  /// few threads each, so that a matrix of a few dozen items shows tile boundaries and carries
  /// (the kernels' tiles hold balanced_threads; the split into threads is the same).
  int walk_threads = 2;
};

/// The lanes per row the vector stage gives a matrix whose mean row length is
/// @p mean_row_length: the smallest power of two at or above it among 2, 4, 8, 16 and 32 (2 for
/// empty or nearly empty rows, 32, a whole warp, for rows of more than 16).
int vector_lanes_for(double mean_row_length);

/// Stage 5's choice: whether its rows are regular enough for the vector kernel (the longest row
/// at most 2 x the mean + 32), or need the merge-based one.
bool rows_are_regular(std::int32_t longest_row, double mean_row_length);

/// The half-width of the band around the diagonal that near_diagonal_share counts: 131,072
/// columns, 512 KiB of float32 x on each side (1 MiB of float64), which L2 keeps while the rows
/// between read it, and neighbouring rows share through L1. At 32,768 the 27-point stencil on
/// 256 x 256 x 256 (a band of 65,793) took the merge path, 1.69x slower than cuSPARSE (H100, README).
inline constexpr std::int64_t kBandColumns = 131072;

/// The share of @p matrix's nonzeros whose column lies within kBandColumns of their row's
/// diagonal (column row x cols / rows, for rectangular matrices too); 1 for no nonzeros.
double near_diagonal_share(const CsrMatrix& matrix);

/// Stage 5's second question: whether the columns are banded (at least 90 % of the nonzeros
/// near the diagonal: stencils, most meshes), so that neighbouring rows read the same x from
/// L1, or scattered (random columns, graphs), so that every nonzero is one L2 request for x.
bool columns_are_banded(double near_diagonal_share);

/// Stage 5 gives regular rows shorter than this on average a thread each (stage 1's kernel).
inline constexpr double kShortRowMean = 12.0;

/// The lanes per row of stage 5's vector kernel, which reads 4 of each lane's nonzeros at once
/// (unrolled): the smallest power of two at or above a quarter of the mean row length, at least
/// 8 (a lane group's streaming load then covers a 32-byte sector) and at most 32.
int tuned_vector_lanes_for(double mean_row_length);

/// The row lengths of a matrix.
struct RowLengths {
  std::int64_t rows = 0;
  std::int64_t nonzeros = 0;
  std::int32_t min = 0;
  std::int32_t max = 0;
  double mean = 0.0;
  /// Percentiles by nearest rank: the smallest length that at least p of the rows do not
  /// exceed (p50, p90, p99, p99.9).
  std::int32_t p50 = 0, p90 = 0, p99 = 0, p999 = 0;
  /// The log2 histogram: buckets[0] counts the empty rows, buckets[k] for k >= 1 the rows of
  /// 2^(k-1) to 2^k - 1 nonzeros; the last bucket holds the longest row.
  std::vector<std::int64_t> buckets;
};

/// The row lengths of @p matrix.
RowLengths row_lengths(const CsrMatrix& matrix);

/// What a stage with a group of L lanes per row does with its warps (stage 1 is L = 1, stage 3
/// L = 2 to 32): a group takes `steps` trips through its row loop, and a warp of 32 / L groups
/// runs as many steps as its slowest group. A step of a lane that has no nonzero to multiply is
/// an idle lane-step.
struct WarpWork {
  int lanes_per_row = 1;
  std::int64_t warps = 0;  ///< ceil(rows / (32 / L)); the last warp may be partly empty
  /// Idle lanes counting only the row's own group: 1 - nnz / sum over rows of L steps(row), with
  /// steps(row) = ceil(max(len, 1) / L) for L > 1 (an empty row still costs its group one step:
  /// the group's reduction runs) and len for L = 1 (then 0: a thread is never idle in its row).
  double idle_in_groups = 0.0;
  /// Idle lanes counting each warp's wait for its slowest group: 1 - nnz / sum over warps of 32
  /// max steps (0 when no warp takes a step).
  double idle_in_warps = 0.0;
  double mean_warp_steps = 0.0;
  std::int64_t max_warp_steps = 0;  ///< the slowest warp's steps
  std::int64_t slowest_warps = 0;   ///< how many warps take max_warp_steps
  double worst_warp_idle = 0.0;     ///< the idle fraction of the most idle warp that takes a step
  /// The busiest lane's steps over the mean steps of a row's lanes (1 when no row takes a step):
  /// how much longer the last thread runs than the average one.
  double busiest_over_average = 0.0;
};

/// The warps of a stage with @p lanes_per_row lanes per row (1, 2, 4, 8, 16 or 32) on @p matrix.
/// @throws std::invalid_argument for any other lane count.
WarpWork warp_work(const CsrMatrix& matrix, int lanes_per_row);

/// What the merge-based stages do: the merge of the row ends and the nonzero indices
/// (rows + nnz items) cut into tiles of NT x VT items and threads of VT items.
struct BalancedWork {
  int threads_per_tile = 0;
  int items_per_thread = 0;
  std::int64_t merge_items = 0;  ///< rows + nonzeros
  std::int64_t threads = 0;      ///< ceil(merge_items / VT); the last may have fewer items
  std::int64_t tiles = 0;        ///< ceil(merge_items / (NT VT))
  std::int64_t min_thread_nonzeros = 0;
  std::int64_t max_thread_nonzeros = 0;
  double mean_thread_nonzeros = 0.0;
  std::int64_t rows_split_between_threads = 0;  ///< rows whose items two or more threads share
  std::int64_t rows_crossing_tiles = 0;         ///< rows whose items two or more tiles share
  std::int64_t carries = 0;                     ///< tile boundaries inside a row: the fix-up's additions
  std::int64_t longest_row_tiles = 0;           ///< the tiles the longest row's items touch
};

/// The merge-based stages' split of @p matrix into threads of @p items_per_thread and tiles of
/// @p threads_per_tile threads. @throws std::invalid_argument for non-positive sizes.
BalancedWork balanced_work(const CsrMatrix& matrix, int threads_per_tile, int items_per_thread);

/// Thread by thread, the merge items of a small matrix (at most 64 rows + nonzeros) cut every
/// @p items_per_thread: `thread 0: nz0 nz1 END0 END1 nz2 nz3 nz4`, nzJ the nonzero J and ENDr the
/// end of row r, each thread starting where merge_path puts its diagonal. Empty for a larger matrix.
std::string merge_items_picture(const CsrMatrix& matrix, int items_per_thread);

/// The share of @p matrix's nonzeros whose column lies in the slice of x that stage 2's block
/// copies to shared memory: the block of rows [b NT, (b+1) NT) holds x[b NT, (b+1) NT), clipped
/// to the columns there are (NT = @p threads_per_block). 0 for no nonzeros.
/// @throws std::invalid_argument for a non-positive @p threads_per_block.
double slice_share(const CsrMatrix& matrix, int threads_per_block);

/// The most merge items (rows + nonzeros) of a matrix whose merge --analyze shows item by item
/// (merge_items_picture, merge_walk).
inline constexpr std::int64_t kMostPictureItems = 64;

/// One item of the merge: a nonzero, which adds its product to the running sum of its row, or
/// the end of a row, which stores the running sum as y[row] and starts the next row.
struct MergeItem {
  bool row_end = false;
  std::int64_t index = 0;  ///< the nonzero's index j, or the row r whose end it is
  std::int64_t row = 0;    ///< the row the item belongs to
};

/// Where a thread's last partial sum goes: nowhere (its last item is a row end, or it has no
/// nonzero after one), to a row that ends later in the same tile (added in shared memory), or
/// to the tile's carry (the row is still open at the tile's end; the fix-up kernel adds it to y).
enum class PartialSum { none, shared, carry };

/// One thread of the merge walk: where merge_path puts its diagonal, and its items.
struct MergeThread {
  std::int64_t tile = 0;
  std::int64_t diagonal = 0;       ///< the merge position of its first item, VT x thread
  std::int64_t first_nonzero = 0;  ///< merge_path's split of the diagonal: nonzeros before it
  std::int64_t first_row = 0;      ///< row ends before it (diagonal - first_nonzero)
  std::vector<MergeItem> items;
  PartialSum partial = PartialSum::none;
  std::int64_t partial_row = -1;      ///< the row of the last partial sum, -1 with PartialSum::none
  std::int64_t partial_nonzeros = 0;  ///< how many of the thread's nonzeros that partial sum holds
};

/// One tile of the merge walk and the carry it leaves.
struct MergeTileSpan {
  std::int64_t diagonal = 0;       ///< the merge position of its first item
  std::int64_t first_nonzero = 0;  ///< the partition search's answer at that diagonal
  std::int64_t first_row = 0;
  std::int64_t end_row = 0;         ///< the first row whose end is not in the tile
  std::int64_t carry_row = -1;      ///< the row open at its end that holds some of its nonzeros, or -1
  std::int64_t carry_nonzeros = 0;  ///< how many of the tile's nonzeros belong to that row
};

/// The merge of the row ends and the nonzeros, item by item, cut into threads of
/// @p items_per_thread and tiles of @p threads_per_tile threads, as the merge-based stages cut it
/// (common/algorithm/merge_path.hpp's search at every thread's and every tile's diagonal).
struct MergeWalk {
  int threads_per_tile = 0;
  int items_per_thread = 0;
  std::int64_t rows = 0;
  std::int64_t nonzeros = 0;
  std::vector<std::int32_t> row_ends;  ///< offsets[1 .. rows]: the list merged with 0 .. nnz - 1
  std::vector<MergeThread> threads;
  std::vector<MergeTileSpan> tiles;
};

/// The merge walk of @p matrix. @throws std::invalid_argument for non-positive sizes or a matrix
/// of more than kMostPictureItems rows + nonzeros.
MergeWalk merge_walk(const CsrMatrix& matrix, int threads_per_tile, int items_per_thread);

/// The whole --analyze report of @p matrix with the stages at @p shapes: plain text, a few
/// sections (each headed by the number and name @p stages gives its stage), ending with a newline.
/// @throws std::invalid_argument for a shape no stage runs (lanes not 0 or a power of two in
///   2 .. 32, threads not a positive multiple of 32, items below 1).
std::string analyze(const CsrMatrix& matrix, const AnalysisShapes& shapes, const AnalyzedStages& stages);

/// The same report as one JSON document for tools/plot (`--analyze --format json`):
/// `{"analysis": "spmv-merge", "matrix": ..., "row_lengths": ..., "stages": ..., "merge_walk": ...,
/// "notes": [...]}`, with the merge walk (merge_walk at the stages' items per thread and
/// shapes.walk_threads threads per tile) for a matrix of at most kMostPictureItems items, else
/// null; "stages" is null for a matrix without rows. @p notes are the matrix's notes (as the
/// text report prints them after it). Ends with a newline.
/// @throws std::invalid_argument as analyze does.
std::string analyze_json(const CsrMatrix& matrix, const AnalysisShapes& shapes, const std::vector<std::string>& notes);

}  // namespace stepwise::spmv
