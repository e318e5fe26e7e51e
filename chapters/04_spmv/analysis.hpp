/// @file analysis.hpp
/// What `--analyze` prints, without a GPU: the matrix's row lengths (statistics and a log2
/// histogram), then what each stage of the table makes of them: how many lanes of the scalar
/// stage's warps sit idle while a warp waits for its longest row, how many of the vector
/// stage's lanes idle in a row's group and in its warp, and how the merge-based stages split
/// rows and nonzeros into equal shares (the Merge Path of common/merge_path.hpp, the very search
/// the kernels run). O(rows + nonzeros), fast at 100 million nonzeros. Host code only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "matrix.hpp"

namespace stepwise::spmv {

/// The shapes --analyze assumes for each stage: the table's defaults unless told otherwise.
struct AnalysisShapes {
  int scalar_threads = 256;    ///< stage 1: threads per block (its warps are 32 consecutive rows)
  int vector_lanes = 0;        ///< stage 3: lanes per row, 2 to 32; 0: vector_lanes_for(the mean row length)
  int balanced_threads = 128;  ///< stages 4 and 5: NT, threads per tile
  int balanced_items = 7;      ///< stages 4 and 5: VT, merge items per thread
};

/// The lanes per row the vector stage gives a matrix whose mean row length is
/// @p mean_row_length: the smallest power of two at or above it among 2, 4, 8, 16 and 32 (2 for
/// empty or nearly empty rows, 32, a whole warp, for rows of more than 16).
int vector_lanes_for(double mean_row_length);

/// Stage 5's choice: whether its rows are regular enough for the vector kernel (the longest row
/// at most 2 x the mean + 32), or need the merge-based one.
bool rows_are_regular(std::int32_t longest_row, double mean_row_length);

/// The half-width of the band around the diagonal that near_diagonal_share counts: 32,768
/// columns, 128 KiB of float32 x on each side, which L1 and L2 keep while neighbouring rows
/// read it.
inline constexpr std::int64_t kBandColumns = 32768;

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

/// The whole --analyze report of @p matrix with the stages at @p shapes: plain text, a few
/// sections, ending with a newline.
/// @throws std::invalid_argument for a shape no stage runs (lanes not 0 or a power of two in
///   2 .. 32, threads not a positive multiple of 32, items below 1).
std::string analyze(const CsrMatrix& matrix, const AnalysisShapes& shapes);

}  // namespace stepwise::spmv
