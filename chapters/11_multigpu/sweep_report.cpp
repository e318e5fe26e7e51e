#include "sweep_report.hpp"

#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "host/report.hpp"
#include "host/sizes.hpp"

namespace stepwise::multigpu {

double Measurement::algbw_gbps() const {
  return time && time->median_ms > 0.0 ? static_cast<double>(bytes) / (time->median_ms * 1e-3) / 1e9 : 0.0;
}

double Measurement::busbw_gbps(int gpus) const { return algbw_gbps() * allreduce_bus_factor(gpus); }

std::vector<StageFit> fit_stages(const SweepReport& report) {
  std::vector<StageFit> fits;
  std::map<std::string, std::size_t> index;
  std::vector<std::vector<double>> xs;
  std::vector<std::vector<double>> ts;
  for (const Measurement& row : report.rows) {
    if (!row.time || row.verdict != Verdict::pass) continue;
    auto found = index.find(row.stage);
    if (found == index.end()) {
      found = index.emplace(row.stage, fits.size()).first;
      fits.push_back({row.number, row.stage, {}});
      xs.emplace_back();
      ts.emplace_back();
    }
    xs[found->second].push_back(static_cast<double>(row.bytes));
    ts[found->second].push_back(row.time->median_ms * 1e-3);
  }
  std::vector<StageFit> fitted;
  for (std::size_t i = 0; i < fits.size(); ++i) {
    try {
      fits[i].fit = fit_alpha_beta(xs[i], ts[i]);
      fitted.push_back(fits[i]);
    } catch (const std::invalid_argument&) {  // one size only: nothing to fit
    }
  }
  return fitted;
}

namespace {

/// Whether the report's rows have a bus bandwidth (nccl-tests' all-reduce measure).
bool has_bus_bandwidth(const SweepReport& report) { return report.problem == "allreduce"; }

std::string row_number(int number) { return number == 0 ? "lib" : std::to_string(number); }

std::string cell_time(const Measurement& row) { return row.time ? format_fixed(row.time->median_ms, 4) : "-"; }

std::string render_text(const SweepReport& report, bool markdown) {
  std::ostringstream out;
  const std::vector<StageFit> fits = fit_stages(report);
  const char* indent = markdown ? "" : "  ";
  const bool bus = has_bus_bandwidth(report);
  out << (markdown ? "**" : "") << report.heading << " of " << report.element_type << " on " << report.gpus << " GPU"
      << (report.gpus == 1 ? "" : "s") << (markdown ? "**" : "") << (markdown ? "\n\n" : "\n");
  for (std::size_t g = 0; g < report.devices.size(); ++g)
    out << indent << (markdown ? "- " : "") << "GPU " << g << ": " << report.devices[g] << "\n";
  out << (markdown ? "\n" : "") << indent << "time: the slowest GPU's, median of " << report.reps << " repetitions; ";
  if (bus)
    out << "algbw = bytes per GPU / time; busbw = algbw x 2(G-1)/G = algbw x "
        << format_fixed(allreduce_bus_factor(report.gpus), 3) << "\n\n";
  else
    out << "algbw = the bytes of all n values / time; busbw does not apply (-)\n\n";
  const std::vector<std::string> heads = {"#",         "stage",        "bytes/GPU",    "n/GPU",
                                          "time (ms)", "algbw (GB/s)", "busbw (GB/s)", "check"};
  std::vector<std::vector<std::string>> cells;
  for (const Measurement& row : report.rows)
    cells.push_back({row_number(row.number), row.stage, format_bytes(static_cast<double>(row.bytes)),
                     format_grouped(static_cast<std::int64_t>(row.n)), cell_time(row),
                     row.time ? format_fixed(row.algbw_gbps(), 2) : "-",
                     row.time && bus ? format_fixed(row.busbw_gbps(report.gpus), 2) : "-",
                     row.verdict == Verdict::pass ? "pass" : "FAIL"});
  auto print_table = [&](const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& body) {
    std::vector<std::size_t> widths(head.size());
    for (std::size_t c = 0; c < head.size(); ++c) {
      widths[c] = head[c].size();
      for (const auto& line : body) widths[c] = std::max(widths[c], line[c].size());
    }
    auto print_line = [&](const std::vector<std::string>& line) {
      out << indent << (markdown ? "| " : "");
      for (std::size_t c = 0; c < line.size(); ++c) {
        const bool left = c == 1;
        out << (left ? std::left : std::right) << std::setw(static_cast<int>(widths[c])) << line[c];
        out << (c + 1 < line.size() ? (markdown ? " | " : "  ") : (markdown ? " |" : ""));
      }
      out << std::right << "\n";
    };
    print_line(head);
    if (markdown) {
      out << "|";
      for (std::size_t c = 0; c < head.size(); ++c)
        out << (c == 1 ? ":" : "") << std::string(widths[c] + 1, '-') << (c == 1 ? "" : ":") << "|";
      out << "\n";
    }
    for (const auto& line : body) print_line(line);
  };
  print_table(heads, cells);
  if (!fits.empty()) {
    out << "\n" << indent << "fit of time = alpha + bytes per GPU / beta over the sizes (weighted by 1/time^2):\n\n";
    std::vector<std::vector<std::string>> fit_cells;
    for (const StageFit& fit : fits)
      fit_cells.push_back({row_number(fit.number), fit.stage, format_fixed(fit.fit.alpha_s * 1e6, 2),
                           fit.fit.beta_bytes_per_s > 0.0 ? format_fixed(fit.fit.beta_bytes_per_s / 1e9, 2) : "-",
                           std::to_string(fit.fit.points)});
    print_table({"#", "stage", "alpha (us)", "beta (GB/s)", "sizes"}, fit_cells);
  }
  out << "\n" << indent << "command: " << (markdown ? "`" : "") << report.command << (markdown ? "`" : "") << "\n";
  out << indent << "date: " << report.date << ", seed " << report.seed << "\n";
  for (const std::string& note : report.notes) out << indent << "note: " << note << "\n";
  for (const Measurement& row : report.rows)
    if (row.verdict != Verdict::pass)
      out << indent << "FAIL " << row_number(row.number) << " " << row.stage << " at "
          << format_bytes(static_cast<double>(row.bytes)) << ": " << row.detail << "\n";
  return out.str();
}

std::string render_json(const SweepReport& report) {
  nlohmann::json json;
  // The keys the tour's summary reads from every chapter's report (chapter, device, n, rows'
  // kind, name, check and median_ms), then this chapter's own.
  json["chapter"] = {{"id", "11"}, {"name", "multigpu"}, {"title", report.chapter_title}};
  json["device"] = {{"name", report.devices.empty() ? std::string() : report.devices.front()}};
  json["n"] = report.rows.empty() ? 0 : report.rows.back().n;
  json["problem"] = report.problem;
  json["devices"] = report.devices;
  json["gpus"] = report.gpus;
  json["element_type"] = report.element_type;
  if (has_bus_bandwidth(report)) json["bus_factor"] = allreduce_bus_factor(report.gpus);
  json["command"] = report.command;
  json["date"] = report.date;
  json["seed"] = report.seed;
  json["reps"] = report.reps;
  json["notes"] = report.notes;
  json["rows"] = nlohmann::json::array();
  for (const Measurement& row : report.rows) {
    nlohmann::json item;
    item["number"] = row.number;
    item["name"] = row.stage;
    item["kind"] = row.kind == RowKind::library ? "library" : "kernel";
    item["check"] = row.verdict == Verdict::pass ? "PASS" : "FAIL";
    item["bytes_per_gpu"] = row.bytes;
    item["n_per_gpu"] = row.n;
    if (row.time) {
      item["median_ms"] = row.time->median_ms;  // the slowest GPU's
      item["min_ms"] = row.time->min_ms;
      item["max_ms"] = row.time->max_ms;
      item["algbw_gbps"] = row.algbw_gbps();
      if (has_bus_bandwidth(report)) item["busbw_gbps"] = row.busbw_gbps(report.gpus);
    } else
      item["median_ms"] = nullptr;
    if (!row.detail.empty()) item["detail"] = row.detail;
    json["rows"].push_back(item);
  }
  json["fits"] = nlohmann::json::array();
  for (const StageFit& fit : fit_stages(report))
    json["fits"].push_back({{"number", fit.number},
                            {"stage", fit.stage},
                            {"alpha_us", fit.fit.alpha_s * 1e6},
                            {"beta_gbps", fit.fit.beta_bytes_per_s / 1e9},
                            {"sizes", fit.fit.points}});
  return json.dump(2) + "\n";
}

}  // namespace

std::string render_sweep(const SweepReport& report, Format format) {
  switch (format) {
    case Format::json:
      return render_json(report);
    case Format::markdown:
      return render_text(report, true);
    default:
      return render_text(report, false);
  }
}

void emit_sweep(const SweepReport& report, const CommonOptions& options) {
  if (!options.json_output.empty()) write_file_atomically(options.json_output, render_sweep(report, Format::json));
  if (!options.output.empty()) {
    write_file_atomically(options.output, render_sweep(report, options.format));
    std::cout << render_sweep(report, Format::table) << std::flush;
  } else {
    std::cout << render_sweep(report, options.format) << std::flush;
  }
}

}  // namespace stepwise::multigpu
