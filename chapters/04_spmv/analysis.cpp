#include "analysis.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "merge_path.hpp"
#include "report.hpp"
#include "sizes.hpp"

namespace stepwise::spmv {
namespace {

/// Lanes per warp.
constexpr int kWarpSize = 32;

std::string grouped(std::int64_t value) { return format_grouped(value); }

/// @p fraction as a percentage with one decimal: `16.7%`.
std::string percent(double fraction) { return format_fixed(100.0 * fraction, 1) + "%"; }

/// The label of log2 bucket @p k: `0`, `1`, `2-3`, `4-7`, ...
std::string bucket_label(std::size_t k) {
  if (k <= 1) return std::to_string(k);
  const std::int64_t low = std::int64_t{1} << (k - 1);
  return std::to_string(low) + "-" + std::to_string(2 * low - 1);
}

/// The log2 bucket of a row of @p length nonzeros (0 for an empty row).
std::size_t bucket_of(std::int32_t length) {
  std::size_t k = 0;
  for (std::uint32_t rest = static_cast<std::uint32_t>(length); rest != 0; rest >>= 1) ++k;
  return k;
}

/// The steps a group of @p lanes takes through a row of @p length (see WarpWork).
std::int64_t group_steps(std::int32_t length, int lanes) {
  if (lanes == 1) return length;
  return (std::max<std::int64_t>(length, 1) + lanes - 1) / lanes;
}

/// True for 1, 2, 4, 8, 16 and 32: the group sizes a warp splits into.
bool is_lane_count(int lanes) { return lanes >= 1 && lanes <= kWarpSize && (lanes & (lanes - 1)) == 0; }

/// The nearest-rank percentile @p permille / 1000 of @p lengths (reordered).
std::int32_t percentile(std::vector<std::int32_t>& lengths, std::int64_t permille) {
  const std::int64_t count = static_cast<std::int64_t>(lengths.size());
  const std::int64_t rank = std::max<std::int64_t>(1, (count * permille + 999) / 1000);
  std::nth_element(lengths.begin(), lengths.begin() + (rank - 1), lengths.end());
  return lengths[static_cast<std::size_t>(rank - 1)];
}

/// @throws std::invalid_argument for a shape no stage runs (see analyze).
void check_shapes(const AnalysisShapes& shapes) {
  const auto whole_warps = [](int threads) { return threads >= kWarpSize && threads <= 1024 && threads % 32 == 0; };
  if (!whole_warps(shapes.scalar_threads) || !whole_warps(shapes.balanced_threads))
    throw std::invalid_argument("analyze: threads per block must be whole warps, 32 to 1024");
  if (shapes.vector_lanes != 0 && (shapes.vector_lanes < 2 || !is_lane_count(shapes.vector_lanes)))
    throw std::invalid_argument(
        "analyze: the vector stage's lanes per row must be 0 (from the mean row length) or "
        "2, 4, 8, 16 or 32, not " +
        std::to_string(shapes.vector_lanes));
  if (shapes.balanced_items < 1) throw std::invalid_argument("analyze: items per thread must be at least 1");
}

/// The matrix: size, density, row-length statistics and the log2 histogram drawn with bars.
std::string matrix_section(const CsrMatrix& matrix, const RowLengths& lengths) {
  std::ostringstream out;
  const double cells = static_cast<double>(matrix.rows) * static_cast<double>(matrix.cols);
  out << "Matrix\n  " << grouped(matrix.rows) << " rows x " << grouped(matrix.cols) << " columns, "
      << grouped(lengths.nonzeros) << " nonzeros (density " << std::setprecision(3)
      << (cells > 0 ? static_cast<double>(lengths.nonzeros) / cells : 0.0) << ")\n";
  if (matrix.rows == 0) return out.str() + "  no rows: nothing for a stage to do\n";
  out << "  row lengths: min " << lengths.min << ", mean " << format_fixed(lengths.mean, 2) << ", max " << lengths.max
      << "; p50 " << lengths.p50 << ", p90 " << lengths.p90 << ", p99 " << lengths.p99 << ", p99.9 " << lengths.p999
      << "\n";
  constexpr int kBarWidth = 40;
  const std::int64_t fullest = *std::max_element(lengths.buckets.begin(), lengths.buckets.end());
  out << "  nonzeros per row        rows   share\n";
  for (std::size_t k = 0; k < lengths.buckets.size(); ++k) {
    const std::int64_t count = lengths.buckets[k];
    const std::int64_t bar = count == 0 ? 0 : std::max<std::int64_t>(1, (count * kBarWidth + fullest / 2) / fullest);
    out << "  " << std::setw(16) << bucket_label(k) << std::setw(12) << grouped(count) << std::setw(8)
        << percent(static_cast<double>(count) / static_cast<double>(lengths.rows))
        << (bar > 0 ? "  " + std::string(static_cast<std::size_t>(bar), '#') : "") << "\n";
  }
  return out.str();
}

/// Stage 1: a thread per row, and what its warps wait for.
std::string scalar_section(const CsrMatrix& matrix, const RowLengths& lengths, const WarpWork& work, int threads) {
  std::ostringstream out;
  const std::int64_t blocks = (matrix.rows + threads - 1) / threads;
  out << "Stage 1, scalar: one thread per row, warps of 32 consecutive rows (" << threads << " threads per block, "
      << grouped(blocks) << (blocks == 1 ? " block)\n" : " blocks)\n")
      << "  a warp runs as many steps as its longest row, its other lanes idle meanwhile\n"
      << "  warps: " << grouped(work.warps) << "; steps per warp: mean " << format_fixed(work.mean_warp_steps, 2)
      << ", slowest " << work.max_warp_steps;
  if (work.mean_warp_steps > 0)
    out << " (" << format_fixed(static_cast<double>(work.max_warp_steps) / work.mean_warp_steps, 2) << "x the mean, "
        << grouped(work.slowest_warps) << (work.slowest_warps == 1 ? " warp" : " warps") << ")";
  out << "\n  idle lane-steps: " << percent(work.idle_in_warps)
      << " (the most idle warp: " << percent(work.worst_warp_idle) << ")\n"
      << "  busiest thread / average thread: " << lengths.max << " / " << format_fixed(lengths.mean, 2) << " = "
      << format_fixed(work.busiest_over_average, 2) << "x\n";
  return out.str();
}

/// Stage 3: L lanes per row, idle inside the groups and across the warp, and a warp per row.
std::string vector_section(const RowLengths& lengths, const WarpWork& work, const WarpWork& whole_warp,
                           bool lanes_from_mean) {
  std::ostringstream out;
  const int lanes = work.lanes_per_row;
  const int rows_per_warp = kWarpSize / lanes;
  out << "Stage 3, vector: " << lanes << " lanes per row ("
      << (lanes_from_mean ? "from the mean row length " + format_fixed(lengths.mean, 2) : std::string("as asked"))
      << "), " << rows_per_warp << (rows_per_warp == 1 ? " row" : " rows") << " per warp\n"
      << "  a row's group takes ceil(len / " << lanes
      << ") steps (an empty row one); a warp waits for its slowest group\n"
      << "  idle lane-steps inside the groups: " << percent(work.idle_in_groups)
      << "; counting each warp's wait: " << percent(work.idle_in_warps) << "\n";
  if (lanes != kWarpSize)
    out << "  with a whole warp per row (32 lanes): " << percent(whole_warp.idle_in_warps) << " idle\n";
  out << "  warps: " << grouped(work.warps) << "; steps per warp: mean " << format_fixed(work.mean_warp_steps, 2)
      << ", slowest " << work.max_warp_steps << "\n"
      << "  busiest lane / average lane: " << format_fixed(work.busiest_over_average, 2) << "x\n";
  return out.str();
}

/// Stage 4 (and stage 5's merge, on its own tile size): the merge cut into equal shares, what each thread gets, the
/// rows it splits.
std::string balanced_section(const CsrMatrix& matrix, const BalancedWork& work) {
  std::ostringstream out;
  const int vt = work.items_per_thread;
  out << "Stage 4, merge-based (stage 5's merge alike, on tiles of its own size): tiles of " << work.threads_per_tile
      << " x " << vt << " = " << work.threads_per_tile * vt << " merge items (row ends and nonzeros), " << vt
      << " per thread\n"
      << "  " << grouped(work.merge_items) << " merge items (" << grouped(matrix.rows) << " rows + "
      << grouped(static_cast<std::int64_t>(matrix.nnz())) << " nonzeros): " << grouped(work.threads) << " threads, "
      << grouped(work.tiles) << (work.tiles == 1 ? " tile\n" : " tiles\n") << "  nonzeros per thread: min "
      << work.min_thread_nonzeros << ", mean " << format_fixed(work.mean_thread_nonzeros, 2) << ", max "
      << work.max_thread_nonzeros << " (every thread but the last: exactly " << vt << " items)\n"
      << "  rows split between threads: " << grouped(work.rows_split_between_threads)
      << " (their pieces added in shared memory)\n"
      << "  rows crossing a tile boundary: " << grouped(work.rows_crossing_tiles) << " (" << grouped(work.carries)
      << (work.carries == 1 ? " carry" : " carries") << " added by the fix-up kernel)\n"
      << "  the longest row's items touch " << grouped(work.longest_row_tiles)
      << (work.longest_row_tiles == 1 ? " tile\n" : " tiles\n")
      << "  busiest thread / average thread: 1.00x (merge items, by construction)\n";
  const std::string picture = merge_items_picture(matrix, vt);
  if (!picture.empty())
    out << "  the merge, thread by thread (nzJ: nonzero J; ENDr: the end of row r, where y[r] is written):\n"
        << picture;
  return out.str();
}

}  // namespace

int vector_lanes_for(double mean_row_length) {
  int lanes = 2;
  while (lanes < kWarpSize && lanes < mean_row_length) lanes *= 2;
  return lanes;
}

bool rows_are_regular(std::int32_t longest_row, double mean_row_length) {
  return longest_row <= 2.0 * mean_row_length + 32.0;
}

double near_diagonal_share(const CsrMatrix& matrix) {
  if (matrix.nnz() == 0) return 1.0;
  std::int64_t near = 0;
  for (std::int32_t row = 0; row < matrix.rows; ++row) {
    const std::int64_t diagonal = static_cast<std::int64_t>(row) * matrix.cols / std::max(matrix.rows, 1);
    for (std::int64_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j) {
      const std::int64_t distance = matrix.columns[j] - diagonal;
      if (distance <= kBandColumns && distance >= -kBandColumns) ++near;
    }
  }
  return static_cast<double>(near) / static_cast<double>(matrix.nnz());
}

bool columns_are_banded(double near_diagonal_share) { return near_diagonal_share >= 0.9; }

int tuned_vector_lanes_for(double mean_row_length) {
  int lanes = 8;
  while (lanes < kWarpSize && lanes < mean_row_length / 4.0) lanes *= 2;
  return lanes;
}

RowLengths row_lengths(const CsrMatrix& matrix) {
  RowLengths lengths;
  lengths.rows = matrix.rows;
  lengths.nonzeros = static_cast<std::int64_t>(matrix.nnz());
  if (matrix.rows == 0) return lengths;
  std::vector<std::int32_t> all(static_cast<std::size_t>(matrix.rows));
  lengths.min = matrix.row_length(0);
  for (std::int32_t row = 0; row < matrix.rows; ++row) {
    const std::int32_t length = matrix.row_length(row);
    all[static_cast<std::size_t>(row)] = length;
    lengths.min = std::min(lengths.min, length);
    lengths.max = std::max(lengths.max, length);
  }
  lengths.mean = static_cast<double>(lengths.nonzeros) / static_cast<double>(matrix.rows);
  lengths.buckets.assign(bucket_of(lengths.max) + 1, 0);
  for (std::int32_t length : all) ++lengths.buckets[bucket_of(length)];
  lengths.p50 = percentile(all, 500);
  lengths.p90 = percentile(all, 900);
  lengths.p99 = percentile(all, 990);
  lengths.p999 = percentile(all, 999);
  return lengths;
}

WarpWork warp_work(const CsrMatrix& matrix, int lanes_per_row) {
  if (!is_lane_count(lanes_per_row))
    throw std::invalid_argument("warp_work: lanes per row must be 1, 2, 4, 8, 16 or 32, not " +
                                std::to_string(lanes_per_row));
  WarpWork work;
  work.lanes_per_row = lanes_per_row;
  const std::int64_t rows = matrix.rows;
  const std::int64_t rows_per_warp = kWarpSize / lanes_per_row;
  work.warps = (rows + rows_per_warp - 1) / rows_per_warp;
  std::int64_t group_lane_steps = 0, warp_lane_steps = 0, row_steps = 0, warp_steps = 0;
  bool any_step = false;
  for (std::int64_t warp = 0; warp < work.warps; ++warp) {
    std::int64_t slowest = 0, nonzeros = 0;
    for (std::int64_t row = warp * rows_per_warp; row < std::min(rows, (warp + 1) * rows_per_warp); ++row) {
      const std::int32_t length = matrix.row_length(static_cast<std::int32_t>(row));
      const std::int64_t steps = group_steps(length, lanes_per_row);
      group_lane_steps += lanes_per_row * steps;
      row_steps += steps;
      nonzeros += length;
      slowest = std::max(slowest, steps);
    }
    warp_lane_steps += kWarpSize * slowest;
    warp_steps += slowest;
    if (slowest > work.max_warp_steps) {
      work.max_warp_steps = slowest;
      work.slowest_warps = 1;
    } else if (slowest == work.max_warp_steps) {
      ++work.slowest_warps;
    }
    if (slowest > 0) {
      const double idle = 1.0 - static_cast<double>(nonzeros) / static_cast<double>(kWarpSize * slowest);
      work.worst_warp_idle = any_step ? std::max(work.worst_warp_idle, idle) : idle;
      any_step = true;
    }
  }
  const double nnz = static_cast<double>(matrix.nnz());
  work.idle_in_groups = group_lane_steps > 0 ? 1.0 - nnz / static_cast<double>(group_lane_steps) : 0.0;
  work.idle_in_warps = warp_lane_steps > 0 ? 1.0 - nnz / static_cast<double>(warp_lane_steps) : 0.0;
  work.mean_warp_steps = work.warps > 0 ? static_cast<double>(warp_steps) / static_cast<double>(work.warps) : 0.0;
  work.busiest_over_average = row_steps > 0 ? static_cast<double>(work.max_warp_steps) * static_cast<double>(rows) /
                                                  static_cast<double>(row_steps)
                                            : 1.0;
  return work;
}

BalancedWork balanced_work(const CsrMatrix& matrix, int threads_per_tile, int items_per_thread) {
  if (threads_per_tile < 1 || items_per_thread < 1)
    throw std::invalid_argument("balanced_work: threads per tile and items per thread must be positive");
  BalancedWork work;
  work.threads_per_tile = threads_per_tile;
  work.items_per_thread = items_per_thread;
  const std::int64_t vt = items_per_thread;
  const std::int64_t tile = static_cast<std::int64_t>(threads_per_tile) * vt;
  const std::int64_t nnz = static_cast<std::int64_t>(matrix.nnz());
  work.merge_items = matrix.rows + nnz;
  work.threads = (work.merge_items + vt - 1) / vt;
  work.tiles = (work.merge_items + tile - 1) / tile;
  work.mean_thread_nonzeros = work.threads > 0 ? static_cast<double>(nnz) / static_cast<double>(work.threads) : 0.0;

  // Row r's items are its nonzeros, at merge positions offsets[r] + r onwards, then its end at
  // offsets[r + 1] + r (ties take the row end: upper bound). Both grow with r, so one walk over
  // the rows finds every thread's row ends, and with them its nonzeros.
  bool first_thread = true;
  std::int64_t thread = 0, ends_in_thread = 0;
  const auto close_thread = [&] {
    const std::int64_t items = std::min(vt, work.merge_items - thread * vt);
    const std::int64_t nonzeros = items - ends_in_thread;
    work.min_thread_nonzeros = first_thread ? nonzeros : std::min(work.min_thread_nonzeros, nonzeros);
    work.max_thread_nonzeros = first_thread ? nonzeros : std::max(work.max_thread_nonzeros, nonzeros);
    first_thread = false;
    ++thread;
    ends_in_thread = 0;
  };
  std::int32_t longest = -1;
  for (std::int32_t row = 0; row < matrix.rows; ++row) {
    const std::int64_t start = static_cast<std::int64_t>(matrix.offsets[row]) + row;
    const std::int64_t end = static_cast<std::int64_t>(matrix.offsets[row + 1]) + row;
    if (start / vt != end / vt) ++work.rows_split_between_threads;
    const std::int64_t boundaries = end / tile - start / tile;
    if (boundaries > 0) ++work.rows_crossing_tiles;
    work.carries += boundaries;
    if (matrix.row_length(row) > longest) {
      longest = matrix.row_length(row);
      work.longest_row_tiles = boundaries + 1;
    }
    while (thread < end / vt) close_thread();
    ++ends_in_thread;
  }
  while (thread < work.threads) close_thread();
  return work;
}

std::string merge_items_picture(const CsrMatrix& matrix, int items_per_thread) {
  constexpr std::int64_t kMostItems = 64;
  const std::int64_t rows = matrix.rows;
  const std::int64_t nnz = static_cast<std::int64_t>(matrix.nnz());
  const std::int64_t total = rows + nnz;
  if (total == 0 || total > kMostItems || items_per_thread < 1) return "";
  const std::int32_t* row_ends = matrix.offsets.data() + 1;
  std::ostringstream out;
  for (std::int64_t diagonal = 0; diagonal < total; diagonal += items_per_thread) {
    // Where the thread's diagonal crosses the merge path: the kernels' own search.
    std::int64_t nz =
        merge_path<Bounds::upper>(CountingIterator<std::int64_t>{0}, nnz, row_ends, rows, diagonal, Less{});
    std::int64_t row = diagonal - nz;
    out << "    thread " << diagonal / items_per_thread << ":";
    for (int i = 0; i < items_per_thread; ++i) {
      if (nz < nnz && (row >= rows || nz < row_ends[row]))
        out << " nz" << nz++;
      else if (row < rows)
        out << " END" << row++;
    }
    out << "\n";
  }
  return out.str();
}

std::string analyze(const CsrMatrix& matrix, const AnalysisShapes& shapes) {
  check_shapes(shapes);
  const RowLengths lengths = row_lengths(matrix);
  std::string text = "chapter 04 spmv --analyze: " + matrix.description + "\n\n" + matrix_section(matrix, lengths);
  if (matrix.rows == 0) return text;
  const int lanes = shapes.vector_lanes != 0 ? shapes.vector_lanes : vector_lanes_for(lengths.mean);
  const WarpWork scalar = warp_work(matrix, 1);
  const WarpWork vector = warp_work(matrix, lanes);
  const WarpWork whole_warp = lanes == kWarpSize ? vector : warp_work(matrix, kWarpSize);
  const BalancedWork balanced = balanced_work(matrix, shapes.balanced_threads, shapes.balanced_items);
  text += "\n" + scalar_section(matrix, lengths, scalar, shapes.scalar_threads) + "\n" +
          vector_section(lengths, vector, whole_warp, shapes.vector_lanes == 0) + "\n" +
          balanced_section(matrix, balanced);
  std::ostringstream summary;
  const auto summary_line = [&](const std::string& stage, double ratio) {
    summary << "  " << std::left << std::setw(26) << stage << std::right << format_fixed(ratio, 2) << "x\n";
  };
  summary << "\nBusiest thread over the average thread, the imbalance each stage leaves:\n";
  summary_line("stage 1 scalar", scalar.busiest_over_average);
  summary_line("stage 3 vector (" + std::to_string(lanes) + " lanes)", vector.busiest_over_average);
  summary_line("stage 4 merge-based", 1.0);
  const bool regular = rows_are_regular(lengths.max, lengths.mean);
  const double near = near_diagonal_share(matrix);
  const bool banded = columns_are_banded(near);
  summary << "\nStage 5, tuned, on this matrix: the rows are "
          << (regular ? "regular (the longest, " + std::to_string(lengths.max) + ", is at most 2 x the mean + 32)"
                      : "irregular (the longest, " + std::to_string(lengths.max) + ", is above 2 x the mean + 32)")
          << "; " << format_fixed(100.0 * near, 1) << " % of the nonzeros lie within " << grouped(kBandColumns)
          << " columns of the diagonal (" << (banded ? "banded" : "scattered") << "):\n  ";
  if (regular && banded)
    summary << (lengths.mean < kShortRowMean
                    ? std::string("short rows (mean below 12): a thread per row")
                    : "the unrolled vector kernel, " + std::to_string(tuned_vector_lanes_for(lengths.mean)) +
                          " lanes per row");
  else
    summary << "the merge-based kernel on compact tiles, line-sized stream loads that bypass L1";
  summary << "\n";
  return text + summary.str();
}

}  // namespace stepwise::spmv
