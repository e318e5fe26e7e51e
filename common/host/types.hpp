/// @file types.hpp
/// The plain types every part of the harness shares: what a row is, how a stage is
/// described and shaped, how a run ended. No CUDA header is included here, so the option
/// parser, the report renderer and the CPU tests build without the CUDA toolkit's headers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stepwise {

/// Exit codes shared by every executable.
enum ExitCode : int {
  kExitOk = 0,         ///< every check passed
  kExitFailed = 1,     ///< a check failed, or a CUDA call failed
  kExitUsage = 2,      ///< bad input (an option, a size, a file)
  kExitNoDevice = 77,  ///< no CUDA-capable GPU or no driver: the conventional "skipped"
};

/// Output formats of a report.
enum class Format { table, markdown, csv, json };

/// Which columns the table and markdown forms show.
enum class Columns {
  full,     ///< every column
  compact,  ///< stage, shape, ms, GB/s, step and total speedup: a slide-sized table
};

/// What a row measures: one of the chapter's own kernels, a vendor library, or the CPU reference.
enum class RowKind { kernel, library, cpu };

/// The outcome of a row's checks.
enum class Verdict {
  pass,       ///< matched the CPU reference before and after timing, nothing written outside the output
  fail,       ///< a check failed: the row is not timed (or its time is discarded)
  reference,  ///< the CPU reference row itself
};

/// `kernel`, `library` or `cpu`.
const char* to_string(RowKind kind);
/// `PASS`, `FAIL` or `ref`.
const char* to_string(Verdict verdict);
/// `table`, `markdown`, `csv` or `json`.
const char* to_string(Format format);
/// `a`, `a and b`, `a, b and c` with @p conjunction `and` (or `or`): a list as a message names it.
std::string join_words(const std::vector<std::string>& words, const std::string& conjunction);
/// `table or json`, `table, markdown or csv`: the formats of @p formats for a message.
std::string join_formats(const std::vector<Format>& formats);

/// Summary of repeated measurements, in milliseconds.
struct TimingStats {
  double median_ms = 0.0;
  double min_ms = 0.0;
  double max_ms = 0.0;
  int reps = 0;
};

/// Median, min and max of @p samples_ms (the median of an even count is the mean of the middle two).
/// @throws std::invalid_argument if @p samples_ms is empty.
TimingStats summarize(std::vector<double> samples_ms);

/// How a kernel stage is launched. A stage reads the fields it uses and leaves the others 0:
/// - `threads`: threads per block (moderngpu's NT);
/// - `items`: values each thread owns (VT), or vectors in flight per thread, or elements
///   per lane of a warp's sequence: whatever "work per thread" the stage has;
/// - `blocks_per_sm`: for grid-sized stages, the grid is blocks_per_sm x the SM count.
/// A shape of all zeros is "no shape" (library rows).
struct LaunchShape {
  int threads = 0;
  int items = 0;
  int blocks_per_sm = 0;

  /// True when no field is set.
  bool empty() const { return threads == 0 && items == 0 && blocks_per_sm == 0; }
  friend bool operator==(const LaunchShape& a, const LaunchShape& b) {
    return a.threads == b.threads && a.items == b.items && a.blocks_per_sm == b.blocks_per_sm;
  }
  friend bool operator!=(const LaunchShape& a, const LaunchShape& b) { return !(a == b); }
};

/// The shape as the table's `shape` column shows it: `256 thr`, `128x7`, `1024 thr, 2 blk/SM`,
/// `128x4, 8 blk/SM`; `-` for no shape.
std::string describe(const LaunchShape& shape);

/// Every combination of the given threads, items and blocks-per-SM values (an empty list
/// leaves that field 0), threads varying slowest.
std::vector<LaunchShape> shape_grid(const std::vector<int>& threads, const std::vector<int>& items = {},
                                    const std::vector<int>& blocks_per_sm = {});

/// A launch shape for the problems up to a size: the per-size tuning a library keeps in its
/// policies (CUB picks a tile per architecture and problem), in the open.
struct SizedShape {
  std::uint64_t up_to_n = 0;  ///< the largest --n this shape is for
  LaunchShape shape;          ///< one of the stage's sweep shapes, the fastest --sweep measured at that size
};

/// A row of a chapter as `--list` shows it and `--stage` selects it.
struct StageInfo {
  int number = 0;  ///< 1, 2, ... for kernels; 0 for library baselines
  std::string name;
  std::string lesson;  ///< what changed from the previous stage and why it should be faster
  RowKind kind = RowKind::kernel;
  LaunchShape shape;               ///< the shape the stage runs with unless --sweep (above shapes_by_n's sizes)
  std::vector<LaunchShape> sweep;  ///< the shapes --sweep tries; empty: nothing to tune
  /// Shapes for smaller problems, by ascending up_to_n, each one of `sweep`: at --n = n a stage's
  /// own row runs at the first whose up_to_n >= n, and at `shape` above the last (shape_at()).
  /// Empty for most stages: one shape serves every size. --list shows the table; the report's
  /// shape column, the shape that ran. Variant rows have none: with --variants every row runs at
  /// its default shape, so that each variant differs from its stage by its one change.
  std::vector<SizedShape> shapes_by_n;
  /// True for a stage that reads a value back to the host mid-run (to size or choose its next
  /// launches): it is timed without holding the stream, so its time includes that round trip
  /// and the launches after it.
  bool synchronizes = false;
  /// The chapter options that change this row (`--block`, `--first-poll-ns`): given while
  /// --stage selects none of the rows that list it, such an option is refused (it would do nothing).
  std::vector<std::string> options;
  /// Empty for a stage's own row. For a variant row, the change of its stage this row undoes,
  /// named in a few words (`packed flags`): the row is the stage with exactly that change undone,
  /// listed and reported as `7 - packed flags` right after the stage, and run only with
  /// --variants (stage.hpp: Stage::variants).
  std::string variant;
  /// Whether this row computes what the chapter's library rows compute (the same output with the
  /// same guarantees). The size sweep compares the library with the fastest such row; a row that
  /// does less (a compaction that does not keep the input order) says false. A library row that
  /// does less than the problem asks (cub::DeviceSelect::Unique beside run-length encoding: no
  /// lengths) says false too, and the size sweep and the tour's summary do not compare with it.
  bool matches_library = true;
};

/// The shape @p stage runs at for a problem of @p n elements: its shapes_by_n entry for n, else its
/// default shape.
LaunchShape shape_at(const StageInfo& stage, std::uint64_t n);

/// Why @p stage's shapes_by_n is malformed (not ascending, an entry not among its sweep shapes, or
/// equal to the default shape), or empty when it is well formed.
std::string shapes_by_n_problem(const StageInfo& stage);

/// A variant row as --list, the table and the messages name it: `7 - packed flags` (its stage's
/// number, then the change it undoes).
std::string variant_label(int number, const std::string& change);

/// What a chapter is; printed in headers, --help and --list.
struct ChapterInfo {
  std::string id;     ///< "00"
  std::string name;   ///< "bandwidth": also the executable's suffix
  std::string title;  ///< one line for --help
  std::uint64_t default_n = 0;
  std::uint64_t min_n = 1;       ///< smallest --n the chapter accepts
  std::string reference_lesson;  ///< what the CPU reference row computes
};

}  // namespace stepwise
