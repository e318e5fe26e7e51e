#include "surface_report.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace stepwise::atomics {
namespace {

std::string fixed(double value, int digits) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(digits) << value;
  return text.str();
}

/// The operations in the order they first appear.
std::vector<std::string> ops_of(const Surface& surface) {
  std::vector<std::string> ops;
  for (const SurfacePoint& point : surface.points)
    if (std::find(ops.begin(), ops.end(), point.op) == ops.end()) ops.push_back(point.op);
  return ops;
}

/// (number, name) of the stages of @p op in order of appearance.
std::vector<std::pair<int, std::string>> stages_of(const Surface& surface, const std::string& op) {
  std::vector<std::pair<int, std::string>> stages;
  for (const SurfacePoint& point : surface.points) {
    const std::pair<int, std::string> stage{point.number, point.stage};
    if (point.op == op && std::find(stages.begin(), stages.end(), stage) == stages.end()) stages.push_back(stage);
  }
  return stages;
}

std::vector<int> keys_of(const Surface& surface, const std::string& op) {
  std::vector<int> keys;
  for (const SurfacePoint& point : surface.points)
    if (point.op == op && std::find(keys.begin(), keys.end(), point.keys_per_warp) == keys.end())
      keys.push_back(point.keys_per_warp);
  return keys;
}

/// The baseline of @p op at @p keys keys per warp: the first kernel row measured there (the
/// table's first, which the surface runs whatever --stage selects), nullptr when none is.
const SurfacePoint* baseline_of(const Surface& surface, const std::string& op, int keys) {
  for (const SurfacePoint& point : surface.points)
    if (point.op == op && point.keys_per_warp == keys && point.number > 0) return &point;
  return nullptr;
}

const SurfacePoint* find(const Surface& surface, const std::string& op, int keys, int number, const std::string& name) {
  for (const SurfacePoint& point : surface.points)
    if (point.op == op && point.keys_per_warp == keys && point.number == number && point.stage == name) return &point;
  return nullptr;
}

std::string label(int number, const std::string& name) {
  return (number > 0 ? std::to_string(number) : std::string("lib")) + " " + name;
}

std::string cell_text(const Surface& surface, const SurfacePoint* point) {
  if (point == nullptr) return "-";
  if (!point->time) return "FAIL";
  const std::optional<double> speedup = speedup_over_naive(surface, *point);
  return speedup ? fixed(*speedup, 2) + "x" : "-";
}

std::string header(const Surface& surface) {
  return "chapter 05 atomics --surface | " + surface.device + " | " + surface.sm +
         " | n = " + std::to_string(surface.n) + " | " + std::to_string(surface.bins) +
         " bins | keys: runs of 32 / (keys per warp) on random bins | " + "L2 flushed (" + surface.flush + ") | seed " +
         std::to_string(surface.seed) + " | " + surface.date;
}

std::string render_text(const Surface& surface, bool markdown) {
  std::ostringstream out;
  out << (markdown ? "" : "") << header(surface) << "\n";
  for (const std::string& op : ops_of(surface)) {
    const auto stages = stages_of(surface, op);
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head = {"keys/warp", "naive ms"};
    for (const auto& [number, name] : stages) head.push_back(label(number, name));
    for (int keys : keys_of(surface, op)) {
      std::vector<std::string> row = {std::to_string(keys)};
      const SurfacePoint* naive = baseline_of(surface, op, keys);
      row.push_back(naive && naive->time ? fixed(naive->time->median_ms, 4) : "-");
      for (const auto& [number, name] : stages)
        row.push_back(cell_text(surface, find(surface, op, keys, number, name)));
      rows.push_back(row);
    }
    out << "\n"
        << (markdown ? "**" + op + "**: speedup over stage 1 (naive)\n\n" : op + ": speedup over stage 1 (naive)\n");
    if (markdown) {
      out << "|";
      for (const std::string& cell : head) out << " " << cell << " |";
      out << "\n|";
      for (std::size_t i = 0; i < head.size(); ++i) out << (i == 0 ? " --- |" : " ---: |");
      out << "\n";
      for (const auto& row : rows) {
        out << "|";
        for (const std::string& cell : row) out << " " << cell << " |";
        out << "\n";
      }
    } else {
      std::vector<std::size_t> width(head.size());
      for (std::size_t i = 0; i < head.size(); ++i) {
        width[i] = head[i].size();
        for (const auto& row : rows) width[i] = std::max(width[i], row[i].size());
      }
      const auto line = [&](const std::vector<std::string>& cells) {
        for (std::size_t i = 0; i < cells.size(); ++i) out << "  " << std::setw(static_cast<int>(width[i])) << cells[i];
        out << "\n";
      };
      line(head);
      for (const auto& row : rows) line(row);
    }
  }
  out << "\n" << (markdown ? "`" + surface.command + "`" : surface.command) << "\n";
  for (const std::string& note : surface.notes) out << (markdown ? "- " : "note: ") << note << "\n";
  for (const SurfacePoint& point : surface.points)
    if (!point.time)
      out << "FAIL " << point.op << ", " << point.keys_per_warp << " keys/warp, " << label(point.number, point.stage)
          << ": " << point.check_detail << "\n";
  return out.str();
}

std::string render_json(const Surface& surface) {
  nlohmann::json document;
  document["kind"] = "surface";
  document["chapter"] = "05 atomics";
  document["device"] = {{"name", surface.device}, {"sm", surface.sm}};
  document["date"] = surface.date;
  document["n"] = surface.n;
  document["bins"] = surface.bins;
  document["seed"] = surface.seed;
  document["flush"] = surface.flush;
  document["command"] = surface.command;
  document["notes"] = surface.notes;
  nlohmann::json points = nlohmann::json::array();
  for (const SurfacePoint& point : surface.points) {
    nlohmann::json entry = {{"op", point.op},
                            {"keys_per_warp", point.keys_per_warp},
                            {"number", point.number},
                            {"stage", point.stage},
                            {"check", point.time ? "PASS" : "FAIL"}};
    if (point.time) {
      entry["median_ms"] = point.time->median_ms;
      entry["min_ms"] = point.time->min_ms;
      entry["max_ms"] = point.time->max_ms;
      entry["reps"] = point.time->reps;
    } else {
      entry["check_detail"] = point.check_detail;
    }
    const std::optional<double> speedup = speedup_over_naive(surface, point);
    if (speedup) entry["speedup"] = *speedup;
    points.push_back(entry);
  }
  document["points"] = points;
  return document.dump(2) + "\n";
}

}  // namespace

std::optional<double> speedup_over_naive(const Surface& surface, const SurfacePoint& point) {
  if (!point.time || point.time->median_ms <= 0.0) return std::nullopt;
  const SurfacePoint* naive = baseline_of(surface, point.op, point.keys_per_warp);
  if (naive == nullptr || !naive->time) return std::nullopt;
  return naive->time->median_ms / point.time->median_ms;
}

std::string render_surface(const Surface& surface, Format format) {
  switch (format) {
    case Format::table:
      return render_text(surface, false);
    case Format::markdown:
      return render_text(surface, true);
    case Format::json:
      return render_json(surface);
    case Format::csv:
      break;
  }
  throw std::invalid_argument("--surface has no csv form");
}

}  // namespace stepwise::atomics
