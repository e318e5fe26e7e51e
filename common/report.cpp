#include "report.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>
#include <sstream>
#include <stdexcept>

#include "sizes.hpp"

namespace stepwise {

Format parse_format(const std::string& name) {
  if (name == "table") return Format::table;
  if (name == "markdown") return Format::markdown;
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  throw std::invalid_argument("unknown format '" + name + "' (use table, markdown, csv or json)");
}

const char* to_string(RowKind kind) {
  switch (kind) {
    case RowKind::kernel:
      return "kernel";
    case RowKind::library:
      return "library";
    case RowKind::cpu:
      return "cpu";
  }
  return "?";
}

void derive_columns(Report& report) {
  const ReportRow* first_kernel = nullptr;
  const ReportRow* previous_kernel = nullptr;
  for (ReportRow& row : report.rows) {
    if (!row.time) continue;
    const double seconds = row.time->median_ms * 1e-3;
    row.gbps = report.bytes_moved / seconds / 1e9;
    row.pct_memcpy = report.memcpy_gbps > 0 ? 100.0 * row.gbps / report.memcpy_gbps : 0.0;
    row.pct_peak = report.device.peak_gbps > 0 ? 100.0 * row.gbps / report.device.peak_gbps : 0.0;
    if (row.kind == RowKind::kernel) {
      if (previous_kernel) row.step_speedup = previous_kernel->time->median_ms / row.time->median_ms;
      if (!first_kernel) first_kernel = &row;
      previous_kernel = &row;
    }
    if (first_kernel) row.total_speedup = first_kernel->time->median_ms / row.time->median_ms;
  }
}

std::string today_iso() {
  const std::time_t now = std::time(nullptr);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d", std::localtime(&now));
  return buffer;
}

namespace {

std::string fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

std::string speedup(const std::optional<double>& value) { return value ? fixed(*value, 2) + "x" : "-"; }

std::string number_cell(const ReportRow& row) {
  if (row.kind == RowKind::library) return "lib";
  if (row.kind == RowKind::cpu) return "cpu";
  return std::to_string(row.number);
}

// The cells of one row, in the column order of the header below.
std::vector<std::string> cells(const ReportRow& row) {
  const bool gpu = row.kind != RowKind::cpu;
  if (!row.time) return {number_cell(row), row.name, "-", "-", "-", "-", "-", "-", row.check};
  return {number_cell(row),
          row.name,
          fixed(row.time->median_ms, 4),
          fixed(row.gbps, 1),
          gpu ? fixed(row.pct_memcpy, 1) : "-",
          gpu ? fixed(row.pct_peak, 1) : "-",
          speedup(row.step_speedup),
          speedup(row.total_speedup),
          row.check};
}

const std::vector<std::string> kColumns = {"#",      "stage",        "time ms (median)", "GB/s", "% memcpy",
                                           "% peak", "step speedup", "total speedup",    "check"};

std::string header_line(const Report& report) {
  std::ostringstream line;
  line << "chapter " << report.chapter_id << " " << report.chapter_name << " | " << report.device.name << " | "
       << report.device.sm_name() << " | " << report.device.sm_count << " SMs | L2 "
       << format_bytes(static_cast<double>(report.device.l2_bytes)) << " | n = " << report.n << " "
       << report.element_type << " | memcpy " << fixed(report.memcpy_gbps, 0) << " GB/s, peak "
       << fixed(report.device.peak_gbps, 0) << " GB/s | L2 " << (report.l2_flushed ? "flushed" : "warm") << " | "
       << report.date;
  return line.str();
}

std::string failure_notes(const Report& report) {
  std::string notes;
  for (const ReportRow& row : report.rows)
    if (row.check == "FAIL") notes += "FAIL " + number_cell(row) + " " + row.name + ": " + row.check_detail + "\n";
  return notes;
}

std::string render_table(const Report& report) {
  std::vector<std::vector<std::string>> grid = {kColumns};
  for (const ReportRow& row : report.rows) grid.push_back(cells(row));
  std::vector<std::size_t> widths(kColumns.size(), 0);
  for (const auto& line : grid)
    for (std::size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
  std::ostringstream out;
  out << header_line(report) << "\n";
  for (std::size_t r = 0; r < grid.size(); ++r) {
    for (std::size_t c = 0; c < grid[r].size(); ++c) {
      const std::string& cell = grid[r][c];
      const std::string pad(widths[c] - cell.size(), ' ');
      out << (c == 0 ? "" : "  ") << (c == 1 ? cell + pad : pad + cell);  // names left, numbers right
    }
    out << "\n";
  }
  out << failure_notes(report);
  return out.str();
}

std::string render_markdown(const Report& report) {
  std::ostringstream out;
  out << header_line(report) << "\n\n|";
  for (const auto& column : kColumns) out << " " << column << " |";
  out << "\n|";
  for (std::size_t c = 0; c < kColumns.size(); ++c) out << (c == 1 ? " --- |" : " ---: |");
  out << "\n";
  for (const ReportRow& row : report.rows) {
    out << "|";
    for (const auto& cell : cells(row)) out << " " << cell << " |";
    out << "\n";
  }
  const std::string notes = failure_notes(report);
  if (!notes.empty()) out << "\n" << notes;
  return out.str();
}

std::string csv_number(bool present, double value) { return present ? fixed(value, 6) : ""; }

std::string render_csv(const Report& report) {
  std::ostringstream out;
  out << "number,kind,stage,median_ms,min_ms,max_ms,gbps,pct_memcpy,pct_peak,step_speedup,total_speedup,check\n";
  for (const ReportRow& row : report.rows) {
    const bool timed = row.time.has_value();
    out << row.number << "," << to_string(row.kind) << "," << row.name << ","
        << csv_number(timed, timed ? row.time->median_ms : 0) << "," << csv_number(timed, timed ? row.time->min_ms : 0)
        << "," << csv_number(timed, timed ? row.time->max_ms : 0) << "," << csv_number(timed, row.gbps) << ","
        << csv_number(timed, row.pct_memcpy) << "," << csv_number(timed, row.pct_peak) << ","
        << csv_number(row.step_speedup.has_value(), row.step_speedup.value_or(0)) << ","
        << csv_number(row.total_speedup.has_value(), row.total_speedup.value_or(0)) << "," << row.check << "\n";
  }
  return out.str();
}

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::string render_json(const Report& report) {
  nlohmann::json rows = nlohmann::json::array();
  for (const ReportRow& row : report.rows) {
    nlohmann::json entry = {{"kind", to_string(row.kind)},
                            {"number", row.number},
                            {"name", row.name},
                            {"lesson", row.lesson},
                            {"check", row.check},
                            {"check_detail", row.check_detail},
                            {"step_speedup", optional_json(row.step_speedup)},
                            {"total_speedup", optional_json(row.total_speedup)}};
    if (row.time) {
      entry["median_ms"] = row.time->median_ms;
      entry["min_ms"] = row.time->min_ms;
      entry["max_ms"] = row.time->max_ms;
      entry["reps"] = row.time->reps;
      entry["gbps"] = row.gbps;
      entry["pct_memcpy"] = row.pct_memcpy;
      entry["pct_peak"] = row.pct_peak;
    } else {
      for (const char* key : {"median_ms", "min_ms", "max_ms", "reps", "gbps", "pct_memcpy", "pct_peak"})
        entry[key] = nullptr;
    }
    rows.push_back(entry);
  }
  const DeviceInfo& device = report.device;
  nlohmann::json document = {
      {"chapter", {{"id", report.chapter_id}, {"name", report.chapter_name}, {"title", report.chapter_title}}},
      {"device",
       {{"ordinal", device.ordinal},
        {"name", device.name},
        {"sm", device.sm_name()},
        {"sm_count", device.sm_count},
        {"l2_bytes", device.l2_bytes},
        {"global_bytes", device.global_bytes},
        {"peak_gbps", device.peak_gbps}}},
      {"n", report.n},
      {"element_type", report.element_type},
      {"bytes_moved", report.bytes_moved},
      {"memcpy_gbps", report.memcpy_gbps},
      {"l2_flushed", report.l2_flushed},
      {"date", report.date},
      {"rows", rows}};
  return document.dump(2) + "\n";
}

}  // namespace

std::string render(const Report& report, Format format) {
  switch (format) {
    case Format::table:
      return render_table(report);
    case Format::markdown:
      return render_markdown(report);
    case Format::csv:
      return render_csv(report);
    case Format::json:
      return render_json(report);
  }
  return {};
}

}  // namespace stepwise
