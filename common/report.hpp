/// @file report.hpp
/// A chapter's results (header facts plus one row per stage) and its four output formats.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "device.hpp"
#include "timing.hpp"

namespace stepwise {

/// Output formats of a report.
enum class Format { table, markdown, csv, json };

/// Parses `table`, `markdown`, `csv` or `json`. @throws std::invalid_argument otherwise.
Format parse_format(const std::string& name);

/// What a row measures: one of the chapter's own kernels, a vendor library, or the CPU reference.
enum class RowKind { kernel, library, cpu };

/// `kernel`, `library` or `cpu`.
const char* to_string(RowKind kind);

/// One measured row of a chapter's table.
struct ReportRow {
  RowKind kind = RowKind::kernel;
  int number = 0;  ///< stage number; 0 for library and CPU rows
  std::string name;
  std::string lesson;
  std::optional<TimingStats> time;  ///< absent when the stage failed before timing
  double gbps = 0.0;
  double pct_memcpy = 0.0;
  double pct_peak = 0.0;
  std::optional<double> step_speedup;   ///< previous kernel row's time / this time
  std::optional<double> total_speedup;  ///< first kernel row's time / this time
  std::string check;                    ///< PASS, FAIL, or ref for the reference itself
  std::string check_detail;
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
  double memcpy_gbps = 0.0;
  bool l2_flushed = true;
  std::string date;  ///< ISO 8601, the day of the run
  std::vector<ReportRow> rows;
};

/// Fills in GB/s, % of memcpy, % of peak and the speedup columns from the timings.
void derive_columns(Report& report);

/// Renders @p report in @p format (the table and markdown forms end with failure details).
std::string render(const Report& report, Format format);

/// Today's date as YYYY-MM-DD (local time).
std::string today_iso();

}  // namespace stepwise
