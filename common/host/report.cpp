#include "host/report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <sstream>
#include <stdexcept>

#include "host/sizes.hpp"

namespace stepwise {

Format parse_format(const std::string& name) {
  if (name == "table") return Format::table;
  if (name == "markdown") return Format::markdown;
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  throw std::invalid_argument("unknown format '" + name + "' (use table, markdown, csv or json)");
}

void derive_columns(Report& report) {
  const ReportRow* first_kernel = nullptr;
  const ReportRow* previous_kernel = nullptr;
  const ReportRow* stage = nullptr;  // the last kernel row that is no variant: a variant's stage
  for (ReportRow& row : report.rows) {
    row.step_speedup.reset();
    row.total_speedup.reset();
    const bool variant = row.kind == RowKind::kernel && !row.variant.empty();
    if (row.kind == RowKind::kernel && !variant) stage = row.time ? &row : nullptr;
    if (!row.time) continue;
    const double seconds = row.time->median_ms * 1e-3;
    row.gbps = report.bytes_moved / seconds / 1e9;
    row.gflops = report.flops / seconds / 1e9;
    row.pct_memcpy = report.memcpy_gbps > 0 ? 100.0 * row.gbps / report.memcpy_gbps : 0.0;
    row.pct_peak = report.device.peak_gbps > 0 ? 100.0 * row.gbps / report.device.peak_gbps : 0.0;
    if (variant) {
      if (stage != nullptr && stage->number == row.number)
        row.step_speedup = stage->time->median_ms / row.time->median_ms;
    } else if (row.kind == RowKind::kernel) {
      if (previous_kernel) row.step_speedup = previous_kernel->time->median_ms / row.time->median_ms;
      if (!first_kernel) first_kernel = &row;
      previous_kernel = &row;
    }
    if (first_kernel) row.total_speedup = first_kernel->time->median_ms / row.time->median_ms;
  }
}

std::string format_fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

std::string today_iso() {
  const std::time_t now = std::time(nullptr);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d", std::localtime(&now));
  return buffer;
}

namespace {

std::string speedup(const std::optional<double>& value) { return value ? format_fixed(*value, 2) + "x" : "-"; }

std::string number_cell(const ReportRow& row) {
  if (row.kind == RowKind::library) return "lib";
  if (row.kind == RowKind::cpu) return "cpu";
  if (!row.variant.empty()) return std::to_string(row.number) + " -";
  return std::to_string(row.number);
}

// The stage column: the stage's name, or the change a variant row undoes (`7 -` `packed flags`).
std::string stage_cell(const ReportRow& row) { return row.variant.empty() ? row.name : row.variant; }

bool has_variants(const Report& report) {
  return std::any_of(report.rows.begin(), report.rows.end(), [](const ReportRow& row) { return !row.variant.empty(); });
}

struct Column {
  const char* title;
  bool compact;  ///< shown in the compact (slide) form too
};

const std::vector<Column> kColumns = {
    {"#", true},       {"stage", true},     {"shape", true},   {"time ms (median)", true}, {"GB/s", true},
    {"GFLOP/s", true}, {"% memcpy", false}, {"% peak", false}, {"step speedup", true},     {"total speedup", true},
    {"check", false}};

constexpr std::size_t kGflopsColumn = 5;  // shown only when the report counts flops

// The cells of one row, in the order of kColumns.
std::vector<std::string> cells(const ReportRow& row) {
  const bool gpu = row.kind != RowKind::cpu;
  const std::string shape = describe(row.shape);
  if (!row.time)
    return {number_cell(row), stage_cell(row), shape, "-", "-", "-", "-", "-", "-", "-", to_string(row.verdict)};
  return {number_cell(row),
          stage_cell(row),
          shape,
          format_fixed(row.time->median_ms, 4),
          format_fixed(row.gbps, 1),
          format_fixed(row.gflops, 1),
          gpu ? format_fixed(row.pct_memcpy, 1) : "-",
          gpu ? format_fixed(row.pct_peak, 1) : "-",
          speedup(row.step_speedup),
          speedup(row.total_speedup),
          to_string(row.verdict)};
}

std::vector<std::size_t> visible_columns(const Report& report, Columns columns) {
  std::vector<std::size_t> visible;
  for (std::size_t c = 0; c < kColumns.size(); ++c)
    if ((columns == Columns::full || kColumns[c].compact) && (c != kGflopsColumn || report.flops > 0))
      visible.push_back(c);
  return visible;
}

std::string cache_text(const Report& report) {
  if (report.flush == "none") return "L2 warm";
  return "L2 flushed (" + report.flush + ")";
}

std::string header_line(const Report& report) {
  std::ostringstream line;
  line << "chapter " << report.chapter_id << " " << report.chapter_name << (report.sweep ? " --sweep" : "") << " | "
       << report.device.name << " | " << report.device.sm_name() << " | " << report.device.sm_count << " SMs | L2 "
       << format_bytes(static_cast<double>(report.device.l2_bytes)) << " | n = " << format_count(report.n) << " "
       << report.element_type << " | memcpy " << format_fixed(report.memcpy_gbps, 0) << " GB/s, peak "
       << format_fixed(report.device.peak_gbps, 0) << " GB/s | " << cache_text(report) << " | seed " << report.seed
       << " | " << report.date;
  return line.str();
}

// After the rows: the command, the notes, the failures.
std::string footer(const Report& report, const std::string& prefix) {
  std::string text;
  if (!report.command.empty()) text += prefix + "command: " + report.command + "\n";
  for (const std::string& note : report.notes) text += prefix + "note: " + note + "\n";
  for (const ReportRow& row : report.rows)
    if (row.verdict == Verdict::fail)
      text += prefix + "FAIL " + number_cell(row) + " " + stage_cell(row) + ": " + row.check_detail + "\n";
  return text;
}

std::string render_table(const Report& report, Columns columns) {
  const std::vector<std::size_t> visible = visible_columns(report, columns);
  std::vector<std::vector<std::string>> grid(1);
  for (std::size_t c : visible) grid[0].push_back(kColumns[c].title);
  for (const ReportRow& row : report.rows) {
    const std::vector<std::string> all = cells(row);
    grid.emplace_back();
    for (std::size_t c : visible) grid.back().push_back(all[c]);
  }
  std::vector<std::size_t> widths(visible.size(), 0);
  for (const auto& line : grid)
    for (std::size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
  std::ostringstream out;
  out << header_line(report) << "\n";
  for (const auto& line : grid) {
    for (std::size_t c = 0; c < line.size(); ++c) {
      const std::string pad(widths[c] - line[c].size(), ' ');
      const bool left =
          kColumns[visible[c]].title == std::string("stage") || kColumns[visible[c]].title == std::string("shape");
      out << (c == 0 ? "" : "  ") << (left ? line[c] + pad : pad + line[c]);  // names left, numbers right
    }
    out << "\n";
  }
  out << footer(report, "");
  return out.str();
}

std::string render_markdown(const Report& report, Columns columns) {
  const std::vector<std::size_t> visible = visible_columns(report, columns);
  std::ostringstream out;
  out << "`" << header_line(report) << "`\n\n|";
  for (std::size_t c : visible) out << " " << kColumns[c].title << " |";
  out << "\n|";
  for (std::size_t c : visible) {
    const std::string title = kColumns[c].title;
    out << (title == "stage" || title == "shape" ? " --- |" : " ---: |");
  }
  out << "\n";
  for (const ReportRow& row : report.rows) {
    const std::vector<std::string> all = cells(row);
    out << "|";
    for (std::size_t c : visible) out << " " << all[c] << " |";
    out << "\n";
  }
  const std::string notes = footer(report, "");
  if (!notes.empty()) {
    out << "\n";
    std::istringstream lines(notes);
    for (std::string line; std::getline(lines, line);) out << line << "  \n";
  }
  return out.str();
}

std::string csv_number(bool present, double value) { return present ? format_fixed(value, 6) : ""; }

// RFC 4180: a field with a comma, a quote or a newline is quoted, its quotes doubled.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string render_csv(const Report& report) {
  std::ostringstream out;
  out << "number,kind,stage,threads,items,blocks_per_sm,median_ms,min_ms,max_ms,gbps,pct_memcpy,pct_peak,"
         "step_speedup,total_speedup,check,seed,command"
      << (report.flops > 0 ? ",gflops" : "") << (has_variants(report) ? ",variant" : "") << "\n";
  for (const ReportRow& row : report.rows) {
    const bool timed = row.time.has_value();
    out << row.number << "," << to_string(row.kind) << "," << csv_field(row.name) << "," << row.shape.threads << ","
        << row.shape.items << "," << row.shape.blocks_per_sm << ","
        << csv_number(timed, timed ? row.time->median_ms : 0) << "," << csv_number(timed, timed ? row.time->min_ms : 0)
        << "," << csv_number(timed, timed ? row.time->max_ms : 0) << "," << csv_number(timed, row.gbps) << ","
        << csv_number(timed, row.pct_memcpy) << "," << csv_number(timed, row.pct_peak) << ","
        << csv_number(row.step_speedup.has_value(), row.step_speedup.value_or(0)) << ","
        << csv_number(row.total_speedup.has_value(), row.total_speedup.value_or(0)) << "," << to_string(row.verdict)
        << "," << report.seed << "," << csv_field(report.command);
    if (report.flops > 0) out << "," << csv_number(timed, row.gflops);
    if (has_variants(report)) out << "," << csv_field(row.variant);
    out << "\n";
  }
  return out.str();
}

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json shape_json(const LaunchShape& shape) {
  return {{"threads", shape.threads},
          {"items", shape.items},
          {"blocks_per_sm", shape.blocks_per_sm},
          {"label", describe(shape)}};
}

void put_time(nlohmann::json& entry, const std::optional<TimingStats>& time, double bytes_moved) {
  if (time) {
    entry["median_ms"] = time->median_ms;
    entry["min_ms"] = time->min_ms;
    entry["max_ms"] = time->max_ms;
    entry["reps"] = time->reps;
    entry["gbps"] = bytes_moved / (time->median_ms * 1e-3) / 1e9;
  } else {
    for (const char* key : {"median_ms", "min_ms", "max_ms", "reps", "gbps"}) entry[key] = nullptr;
  }
}

std::string render_json(const Report& report) {
  nlohmann::json rows = nlohmann::json::array();
  for (const ReportRow& row : report.rows) {
    nlohmann::json entry = {{"kind", to_string(row.kind)},
                            {"number", row.number},
                            {"name", row.name},
                            {"lesson", row.lesson},
                            {"shape", shape_json(row.shape)},
                            {"check", to_string(row.verdict)},
                            {"check_detail", row.check_detail},
                            {"step_speedup", optional_json(row.step_speedup)},
                            {"total_speedup", optional_json(row.total_speedup)}};
    if (!row.variant.empty()) entry["variant"] = row.variant;
    if (!row.matches_library) entry["matches_library"] = false;
    put_time(entry, row.time, report.bytes_moved);
    entry["gflops"] = row.time && report.flops > 0 ? nlohmann::json(row.gflops) : nlohmann::json(nullptr);
    entry["pct_memcpy"] = row.time ? nlohmann::json(row.pct_memcpy) : nlohmann::json(nullptr);
    entry["pct_peak"] = row.time ? nlohmann::json(row.pct_peak) : nlohmann::json(nullptr);
    nlohmann::json sweep = nlohmann::json::array();
    for (const SweepPoint& point : row.sweep) {
      nlohmann::json tried = {
          {"shape", shape_json(point.shape)}, {"check", to_string(point.verdict)}, {"check_detail", point.detail}};
      put_time(tried, point.time, report.bytes_moved);
      sweep.push_back(tried);
    }
    entry["sweep"] = sweep;
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
        {"memory_clock_khz", device.memory_clock_khz},
        {"bus_width_bits", device.bus_width_bits},
        {"driver_version", device.driver_version},
        {"runtime_version", device.runtime_version},
        {"peak_gbps", device.peak_gbps}}},
      {"n", report.n},
      {"element_type", report.element_type},
      {"bytes_moved", report.bytes_moved},
      {"flops", report.flops},
      {"memcpy_gbps", report.memcpy_gbps},
      {"flush", report.flush},
      {"l2_flushed", report.flush != "none"},
      {"seed", report.seed},
      {"command", report.command},
      {"date", report.date},
      {"sweep", report.sweep},
      {"notes", report.notes},
      {"rows", rows}};
  return document.dump(2) + "\n";
}

}  // namespace

std::string render(const Report& report, Format format, Columns columns) {
  switch (format) {
    case Format::table:
      return render_table(report, columns);
    case Format::markdown:
      return render_markdown(report, columns);
    case Format::csv:
      return render_csv(report);
    case Format::json:
      return render_json(report);
  }
  return {};
}

}  // namespace stepwise
