#include "analysis.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "algorithm/merge_path.hpp"
#include "host/report.hpp"
#include "host/sizes.hpp"

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
  if (shapes.walk_threads < 1) throw std::invalid_argument("analyze: the merge walk's tiles need a thread or more");
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

/// The scalar stage: a thread per row, and what its warps wait for.
std::string scalar_section(const CsrMatrix& matrix, const RowLengths& lengths, const WarpWork& work, int threads,
                           const StageLabel& stage) {
  std::ostringstream out;
  const std::int64_t blocks = (matrix.rows + threads - 1) / threads;
  out << "Stage " << stage.number << ", " << stage.name << ": one thread per row, warps of 32 consecutive rows ("
      << threads << " threads per block, " << grouped(blocks) << (blocks == 1 ? " block)\n" : " blocks)\n")
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

/// The shared-cache stage: how many of the nonzeros find x in their block's slice.
std::string shared_cache_section(double share, int threads, const StageLabel& stage) {
  std::ostringstream out;
  out << "Stage " << stage.number << ", " << stage.name << ": block b copies x[b*" << threads << ", (b+1)*" << threads
      << ") into shared memory (the slice on its rows' diagonal)\n"
      << "  nonzeros whose column lies in their block's slice: " << percent(share)
      << " (the others read x from global memory)\n";
  return out.str();
}

/// The vector stage: L lanes per row, idle inside the groups and across the warp, and a warp per row.
std::string vector_section(const RowLengths& lengths, const WarpWork& work, const WarpWork& whole_warp,
                           bool lanes_from_mean, const StageLabel& stage) {
  std::ostringstream out;
  const int lanes = work.lanes_per_row;
  const int rows_per_warp = kWarpSize / lanes;
  out << "Stage " << stage.number << ", " << stage.name << ": " << lanes << " lanes per row ("
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

/// The merge-based stage (and the tuned stage's merge, on its own tile size): the merge cut into equal shares,
/// what each thread gets, the rows it splits.
std::string balanced_section(const CsrMatrix& matrix, const BalancedWork& work, const AnalyzedStages& stages) {
  std::ostringstream out;
  const int vt = work.items_per_thread;
  out << "Stage " << stages.merge.number << ", " << stages.merge.name << " (stage " << stages.tuned.number
      << "'s merge alike, on tiles of its own size): tiles of " << work.threads_per_tile << " x " << vt << " = "
      << work.threads_per_tile * vt << " merge items (row ends and nonzeros), " << vt << " per thread\n"
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

/// A stage's warps (WarpWork) as JSON.
nlohmann::ordered_json warp_json(const WarpWork& work) {
  return {{"lanes_per_row", work.lanes_per_row},
          {"warps", work.warps},
          {"idle_in_groups", work.idle_in_groups},
          {"idle_in_warps", work.idle_in_warps},
          {"mean_warp_steps", work.mean_warp_steps},
          {"max_warp_steps", work.max_warp_steps},
          {"slowest_warps", work.slowest_warps},
          {"worst_warp_idle", work.worst_warp_idle},
          {"busiest_over_average", work.busiest_over_average}};
}

const char* partial_name(PartialSum partial) {
  switch (partial) {
    case PartialSum::shared:
      return "shared";
    case PartialSum::carry:
      return "carry";
    case PartialSum::none:
      break;
  }
  return "none";
}

/// The merge walk as JSON: its threads with their items, and its tiles with their carries.
nlohmann::ordered_json walk_json(const MergeWalk& walk) {
  nlohmann::ordered_json threads = nlohmann::ordered_json::array();
  for (const MergeThread& thread : walk.threads) {
    nlohmann::ordered_json items = nlohmann::ordered_json::array();
    for (const MergeItem& item : thread.items)
      items.push_back({{"kind", item.row_end ? "end" : "nonzero"}, {"index", item.index}, {"row", item.row}});
    threads.push_back({{"tile", thread.tile},
                       {"diagonal", thread.diagonal},
                       {"first_nonzero", thread.first_nonzero},
                       {"first_row", thread.first_row},
                       {"items", items},
                       {"partial", partial_name(thread.partial)},
                       {"partial_row", thread.partial_row},
                       {"partial_nonzeros", thread.partial_nonzeros}});
  }
  nlohmann::ordered_json tiles = nlohmann::ordered_json::array();
  for (const MergeTileSpan& tile : walk.tiles)
    tiles.push_back({{"diagonal", tile.diagonal},
                     {"first_nonzero", tile.first_nonzero},
                     {"first_row", tile.first_row},
                     {"end_row", tile.end_row},
                     {"carry_row", tile.carry_row},
                     {"carry_nonzeros", tile.carry_nonzeros}});
  return {{"threads_per_tile", walk.threads_per_tile},
          {"items_per_thread", walk.items_per_thread},
          {"rows", walk.rows},
          {"nonzeros", walk.nonzeros},
          {"row_ends", walk.row_ends},
          {"threads", threads},
          {"tiles", tiles}};
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

double slice_share(const CsrMatrix& matrix, int threads_per_block) {
  if (threads_per_block < 1) throw std::invalid_argument("slice_share: threads per block must be positive");
  if (matrix.nnz() == 0) return 0.0;
  std::int64_t in_slice = 0;
  for (std::int32_t row = 0; row < matrix.rows; ++row) {
    const std::int64_t begin = static_cast<std::int64_t>(row) / threads_per_block * threads_per_block;
    const std::int64_t end = std::min<std::int64_t>(begin + threads_per_block, matrix.cols);
    for (std::int64_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j)
      if (matrix.columns[j] >= begin && matrix.columns[j] < end) ++in_slice;
  }
  return static_cast<double>(in_slice) / static_cast<double>(matrix.nnz());
}

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
  const std::int64_t rows = matrix.rows;
  const std::int64_t nnz = static_cast<std::int64_t>(matrix.nnz());
  const std::int64_t total = rows + nnz;
  if (total == 0 || total > kMostPictureItems || items_per_thread < 1) return "";
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

MergeWalk merge_walk(const CsrMatrix& matrix, int threads_per_tile, int items_per_thread) {
  if (threads_per_tile < 1 || items_per_thread < 1)
    throw std::invalid_argument("merge_walk: threads per tile and items per thread must be positive");
  const std::int64_t rows = matrix.rows;
  const std::int64_t nnz = static_cast<std::int64_t>(matrix.nnz());
  const std::int64_t total = rows + nnz;
  if (total > kMostPictureItems)
    throw std::invalid_argument("merge_walk: " + std::to_string(total) + " merge items, more than the " +
                                std::to_string(kMostPictureItems) + " a walk shows");
  MergeWalk walk;
  walk.threads_per_tile = threads_per_tile;
  walk.items_per_thread = items_per_thread;
  walk.rows = rows;
  walk.nonzeros = nnz;
  walk.row_ends.assign(matrix.offsets.begin() + 1, matrix.offsets.end());
  const std::int32_t* row_ends = matrix.offsets.data() + 1;
  // Where the merge path crosses a diagonal: the partition kernel's search (tiles) and each
  // thread's (inside its tile: the same crossing, since a tile starts on a thread's diagonal).
  const auto split = [&](std::int64_t diagonal) {
    return merge_path<Bounds::upper>(CountingIterator<std::int64_t>{0}, nnz, row_ends, rows, diagonal, Less{});
  };
  const std::int64_t vt = items_per_thread;
  const std::int64_t tile_items = vt * threads_per_tile;
  for (std::int64_t diagonal = 0; diagonal < total; diagonal += tile_items) {
    MergeTileSpan tile;
    tile.diagonal = diagonal;
    tile.first_nonzero = split(diagonal);
    tile.first_row = diagonal - tile.first_nonzero;
    const std::int64_t end = std::min(total, diagonal + tile_items);
    const std::int64_t end_nonzero = split(end);
    tile.end_row = end - end_nonzero;
    if (tile.end_row < rows) {
      const std::int64_t from = std::max<std::int64_t>(tile.first_nonzero, matrix.offsets[tile.end_row]);
      if (end_nonzero > from) {
        tile.carry_row = tile.end_row;
        tile.carry_nonzeros = end_nonzero - from;
      }
    }
    walk.tiles.push_back(tile);
  }
  for (std::int64_t diagonal = 0; diagonal < total; diagonal += vt) {
    MergeThread thread;
    thread.tile = diagonal / tile_items;
    thread.diagonal = diagonal;
    std::int64_t nz = split(diagonal);
    std::int64_t row = diagonal - nz;
    thread.first_nonzero = nz;
    thread.first_row = row;
    std::int64_t since_row_end = 0;
    for (std::int64_t i = 0; i < vt && diagonal + i < total; ++i) {
      if (nz < nnz && (row >= rows || nz < row_ends[row])) {  // the kernels' test, item by item
        thread.items.push_back({false, nz++, row});
        ++since_row_end;
      } else {
        thread.items.push_back({true, row, row});
        ++row;
        since_row_end = 0;
      }
    }
    if (since_row_end > 0) {
      thread.partial_row = row;
      thread.partial_nonzeros = since_row_end;
      thread.partial =
          row < walk.tiles[static_cast<std::size_t>(thread.tile)].end_row ? PartialSum::shared : PartialSum::carry;
    }
    walk.threads.push_back(std::move(thread));
  }
  return walk;
}

std::string analyze(const CsrMatrix& matrix, const AnalysisShapes& shapes, const AnalyzedStages& stages) {
  check_shapes(shapes);
  const RowLengths lengths = row_lengths(matrix);
  std::string text = "chapter 04 spmv --analyze: " + matrix.description + "\n\n" + matrix_section(matrix, lengths);
  if (matrix.rows == 0) return text;
  const int lanes = shapes.vector_lanes != 0 ? shapes.vector_lanes : vector_lanes_for(lengths.mean);
  const WarpWork scalar = warp_work(matrix, 1);
  const WarpWork vector = warp_work(matrix, lanes);
  const WarpWork whole_warp = lanes == kWarpSize ? vector : warp_work(matrix, kWarpSize);
  const BalancedWork balanced = balanced_work(matrix, shapes.balanced_threads, shapes.balanced_items);
  text += "\n" + scalar_section(matrix, lengths, scalar, shapes.scalar_threads, stages.scalar) + "\n" +
          shared_cache_section(slice_share(matrix, shapes.scalar_threads), shapes.scalar_threads, stages.shared_cache) +
          "\n" + vector_section(lengths, vector, whole_warp, shapes.vector_lanes == 0, stages.vector) + "\n" +
          balanced_section(matrix, balanced, stages);
  std::ostringstream summary;
  const auto summary_line = [&](const std::string& stage, double ratio) {
    summary << "  " << std::left << std::setw(26) << stage << std::right << format_fixed(ratio, 2) << "x\n";
  };
  summary << "\nBusiest thread over the average thread, the imbalance each stage leaves:\n";
  const auto named = [](const StageLabel& stage) { return "stage " + std::to_string(stage.number) + " " + stage.name; };
  summary_line(named(stages.scalar), scalar.busiest_over_average);
  summary_line(named(stages.vector) + " (" + std::to_string(lanes) + " lanes)", vector.busiest_over_average);
  summary_line(named(stages.merge), 1.0);
  const bool regular = rows_are_regular(lengths.max, lengths.mean);
  const double near = near_diagonal_share(matrix);
  const bool banded = columns_are_banded(near);
  summary << "\nStage " << stages.tuned.number << ", " << stages.tuned.name << ", on this matrix: the rows are "
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

std::string analyze_json(const CsrMatrix& matrix, const AnalysisShapes& shapes, const std::vector<std::string>& notes) {
  check_shapes(shapes);
  const RowLengths lengths = row_lengths(matrix);
  nlohmann::ordered_json document = {{"analysis", "spmv-merge"},
                                     {"chapter", "04"},
                                     {"matrix",
                                      {{"description", matrix.description},
                                       {"rows", matrix.rows},
                                       {"cols", matrix.cols},
                                       {"nonzeros", lengths.nonzeros}}},
                                     {"row_lengths",
                                      {{"min", lengths.min},
                                       {"max", lengths.max},
                                       {"mean", lengths.mean},
                                       {"p50", lengths.p50},
                                       {"p90", lengths.p90},
                                       {"p99", lengths.p99},
                                       {"p999", lengths.p999},
                                       {"buckets", lengths.buckets}}},
                                     {"stages", nullptr},
                                     {"merge_walk", nullptr},
                                     {"notes", notes}};
  if (matrix.rows > 0) {
    const int lanes = shapes.vector_lanes != 0 ? shapes.vector_lanes : vector_lanes_for(lengths.mean);
    const BalancedWork merge = balanced_work(matrix, shapes.balanced_threads, shapes.balanced_items);
    const bool regular = rows_are_regular(lengths.max, lengths.mean);
    const double near = near_diagonal_share(matrix);
    const bool banded = columns_are_banded(near);
    const char* kernel = !(regular && banded) ? "merge" : lengths.mean < kShortRowMean ? "short-rows" : "vector";
    nlohmann::ordered_json vector = warp_json(warp_work(matrix, lanes));
    vector["lanes_from_mean"] = shapes.vector_lanes == 0;
    vector["whole_warp_idle_in_warps"] = warp_work(matrix, kWarpSize).idle_in_warps;
    nlohmann::ordered_json scalar = warp_json(warp_work(matrix, 1));
    scalar["threads_per_block"] = shapes.scalar_threads;
    document["stages"] = {
        {"scalar", scalar},
        {"shared_cache",
         {{"threads_per_block", shapes.scalar_threads}, {"slice_share", slice_share(matrix, shapes.scalar_threads)}}},
        {"vector", vector},
        {"merge",
         {{"threads_per_tile", merge.threads_per_tile},
          {"items_per_thread", merge.items_per_thread},
          {"merge_items", merge.merge_items},
          {"threads", merge.threads},
          {"tiles", merge.tiles},
          {"min_thread_nonzeros", merge.min_thread_nonzeros},
          {"mean_thread_nonzeros", merge.mean_thread_nonzeros},
          {"max_thread_nonzeros", merge.max_thread_nonzeros},
          {"rows_split_between_threads", merge.rows_split_between_threads},
          {"rows_crossing_tiles", merge.rows_crossing_tiles},
          {"carries", merge.carries},
          {"longest_row_tiles", merge.longest_row_tiles}}},
        {"tuned",
         {{"regular_rows", regular},
          {"near_diagonal_share", near},
          {"banded", banded},
          {"kernel", kernel},
          {"lanes_per_row", std::string(kernel) == "vector" ? tuned_vector_lanes_for(lengths.mean) : 0}}}};
  }
  if (lengths.rows + lengths.nonzeros <= kMostPictureItems && lengths.rows + lengths.nonzeros > 0)
    document["merge_walk"] = walk_json(merge_walk(matrix, shapes.walk_threads, shapes.balanced_items));
  return document.dump(2) + "\n";
}

}  // namespace stepwise::spmv
