/// @file report.hpp
/// A chapter's results (header facts plus one row per stage) and its four output formats.
/// Host code only: no CUDA header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/device.hpp"
#include "host/types.hpp"

namespace stepwise {

/// Parses `table`, `markdown`, `csv` or `json`. @throws std::invalid_argument otherwise.
Format parse_format(const std::string& name);

/// One shape a --sweep tried for a stage.
struct SweepPoint {
  LaunchShape shape;
  std::optional<TimingStats> time;  ///< absent when the shape failed its check
  Verdict verdict = Verdict::pass;
  std::string detail;  ///< why it failed
};

/// One measured row of a chapter's table.
struct ReportRow {
  RowKind kind = RowKind::kernel;
  int number = 0;  ///< stage number; 0 for library and CPU rows
  std::string name;
  std::string variant;          ///< a variant row: the change of stage `number` it undoes (StageInfo::variant)
  bool matches_library = true;  ///< StageInfo::matches_library; JSON writes `"matches_library": false` when false
  std::string lesson;
  LaunchShape shape;                ///< the shape this row ran with (the best one, after a sweep)
  std::optional<TimingStats> time;  ///< absent when the stage failed before timing
  double gbps = 0.0;
  double gflops = 0.0;  ///< the report's flops / time (0 when it counts none)
  double pct_memcpy = 0.0;
  double pct_peak = 0.0;
  /// The previous kernel row's time / this time; for a variant row, its stage's time / this time
  /// (below 1x when the change it undoes pays), and a variant is no later row's previous row.
  std::optional<double> step_speedup;
  std::optional<double> total_speedup;  ///< first kernel row's time / this time
  Verdict verdict = Verdict::pass;
  std::string check_detail;       ///< why the row failed
  std::vector<SweepPoint> sweep;  ///< every shape --sweep tried (empty without --sweep)
};

/// Everything a chapter run reports.
struct Report {
  std::string chapter_id;    ///< "00"
  std::string chapter_name;  ///< "bandwidth"
  std::string chapter_title;
  DeviceInfo device;
  std::uint64_t n = 0;
  std::string element_type;
  double bytes_moved = 0.0;
  double flops = 0.0;  ///< floating-point operations of one run; 0: no GFLOP/s column
  double memcpy_gbps = 0.0;
  std::string flush = "read";  ///< how L2 was emptied before each repetition: read, write or none
  std::uint64_t seed = 0;
  std::string command;             ///< the command line that reproduces the report
  std::string date;                ///< ISO 8601, the day of the run
  bool sweep = false;              ///< rows are the best shape per stage of a --sweep
  std::vector<std::string> notes;  ///< remarks about the run (a row left out, and why)
  std::vector<ReportRow> rows;
};

/// Fills in GB/s, GFLOP/s, % of memcpy, % of peak and the speedup columns from the timings.
void derive_columns(Report& report);

/// Renders @p report in @p format. The table and markdown forms end with the command line
/// that reproduces the run, the notes and the failure details; JSON carries all of them and
/// every sweep point; CSV has one line per row, with the seed and command in every line. A variant
/// row is `7 - change` in the table and markdown; JSON gives it a `variant` key, and CSV a last
/// column, `variant`, when the report has one (a report without variants reads as before).
std::string render(const Report& report, Format format, Columns columns = Columns::full);

/// `value` with @p digits digits after the point: `format_fixed(3.14159, 2)` is `3.14`.
std::string format_fixed(double value, int digits);

/// Today's date as YYYY-MM-DD (local time).
std::string today_iso();

}  // namespace stepwise
