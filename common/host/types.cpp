#include "host/types.hpp"

#include <algorithm>
#include <stdexcept>

namespace stepwise {

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

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass:
      return "PASS";
    case Verdict::fail:
      return "FAIL";
    case Verdict::reference:
      return "ref";
  }
  return "?";
}

const char* to_string(Format format) {
  switch (format) {
    case Format::table:
      return "table";
    case Format::markdown:
      return "markdown";
    case Format::csv:
      return "csv";
    case Format::json:
      return "json";
  }
  return "?";
}

TimingStats summarize(std::vector<double> samples_ms) {
  if (samples_ms.empty()) throw std::invalid_argument("summarize: no samples");
  std::sort(samples_ms.begin(), samples_ms.end());
  const std::size_t count = samples_ms.size();
  TimingStats stats;
  stats.reps = static_cast<int>(count);
  stats.min_ms = samples_ms.front();
  stats.max_ms = samples_ms.back();
  stats.median_ms = count % 2 == 1 ? samples_ms[count / 2] : 0.5 * (samples_ms[count / 2 - 1] + samples_ms[count / 2]);
  return stats;
}

std::string join_words(const std::vector<std::string>& words, const std::string& conjunction) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i)
    text += (i == 0 ? "" : i + 1 == words.size() ? " " + conjunction + " " : ", ") + words[i];
  return text;
}

std::string join_formats(const std::vector<Format>& formats) {
  std::vector<std::string> names;
  for (Format format : formats) names.push_back(to_string(format));
  return join_words(names, "or");
}

std::string describe(const LaunchShape& shape) {
  if (shape.empty()) return "-";
  std::string text;
  if (shape.items != 0)
    text = std::to_string(shape.threads) + "x" + std::to_string(shape.items);
  else
    text = std::to_string(shape.threads) + " thr";
  if (shape.blocks_per_sm != 0) text += ", " + std::to_string(shape.blocks_per_sm) + " blk/SM";
  return text;
}

std::vector<LaunchShape> shape_grid(const std::vector<int>& threads, const std::vector<int>& items,
                                    const std::vector<int>& blocks_per_sm) {
  const std::vector<int> no_value = {0};
  std::vector<LaunchShape> shapes;
  for (int t : threads)
    for (int i : items.empty() ? no_value : items)
      for (int b : blocks_per_sm.empty() ? no_value : blocks_per_sm) shapes.push_back({t, i, b});
  return shapes;
}

LaunchShape shape_at(const StageInfo& stage, std::uint64_t n) {
  for (const SizedShape& sized : stage.shapes_by_n)
    if (n <= sized.up_to_n) return sized.shape;
  return stage.shape;
}

std::string shapes_by_n_problem(const StageInfo& stage) {
  for (std::size_t i = 0; i < stage.shapes_by_n.size(); ++i) {
    const SizedShape& sized = stage.shapes_by_n[i];
    if (i > 0 && sized.up_to_n <= stage.shapes_by_n[i - 1].up_to_n) return "sizes not ascending";
    if (std::find(stage.sweep.begin(), stage.sweep.end(), sized.shape) == stage.sweep.end())
      return describe(sized.shape) + " is not one of the sweep's shapes";
    if (sized.shape == stage.shape) return describe(sized.shape) + " is the default shape";
  }
  return "";
}

std::string variant_label(int number, const std::string& change) { return std::to_string(number) + " - " + change; }

}  // namespace stepwise
