#include "cli.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <sstream>

#include "sizes.hpp"

namespace stepwise {

bool CommonOptions::selects(const std::string& stage_name) const {
  return stages.empty() || std::find(stages.begin(), stages.end(), stage_name) != stages.end();
}

ChapterCli::ChapterCli(ChapterInfo chapter, std::vector<StageInfo> stages)
    : chapter_(std::move(chapter)),
      stages_(std::move(stages)),
      app_("chapter " + chapter_.id + " " + chapter_.name + ": " + chapter_.title) {
  options_.n = chapter_.default_n;
  n_text_ = std::to_string(chapter_.default_n);
  app_.add_option("--n", n_text_, "Number of elements: 1000000, 1M, 16Mi, 2^26 (K/M/G decimal, Ki/Mi/Gi binary)")
      ->default_str(std::to_string(chapter_.default_n));
  app_.add_option("--stage", stage_selectors_,
                  "Run only this stage (number or name; repeatable; 'lib' = library rows, 'cpu' = reference)");
  app_.add_flag("--list", options_.list, "List the stages with their lessons and exit");
  app_.add_option("--reps", options_.reps, "Timed repetitions per stage (median reported)")->capture_default_str();
  app_.add_option("--warmup", options_.warmup, "Untimed runs before timing")->capture_default_str();
  app_.add_option("--seed", options_.seed, "Seed of the input data")->capture_default_str();
  app_.add_option("--format", format_text_, "Report format: table, markdown, csv, json")->capture_default_str();
  app_.add_option("--output", options_.output, "Also write the report, in --format, to this file");
  app_.add_option("--device", options_.device, "CUDA device ordinal")->capture_default_str();
  app_.add_flag("--warm-cache", options_.warm_cache, "Do not flush L2 between repetitions");
}

std::optional<int> ChapterCli::parse(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "stepwise";
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app_.help();
    return 0;
  } catch (const CLI::ParseError& error) {
    std::cerr << program << ": error: " << error.what() << " (see --help)\n";
    return 2;
  }
  return finish(program);
}

std::optional<int> ChapterCli::parse(const std::vector<std::string>& arguments) {
  std::vector<const char*> argv = {"stepwise"};
  for (const auto& argument : arguments) argv.push_back(argument.c_str());
  return parse(static_cast<int>(argv.size()), argv.data());
}

std::optional<int> ChapterCli::finish(const std::string& program) {
  try {
    validate();
  } catch (const std::exception& error) {
    std::cerr << program << ": error: " << error.what() << "\n";
    return 2;
  }
  if (options_.list) {
    std::cout << stage_listing();
    return 0;
  }
  return std::nullopt;
}

void ChapterCli::validate() {
  try {
    options_.n = parse_count(n_text_);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--n: ") + error.what());
  }
  if (options_.n < chapter_.min_n)
    throw UsageError("--n: " + std::to_string(options_.n) + " is below the smallest size this chapter accepts (" +
                     std::to_string(chapter_.min_n) + ")");
  if (options_.n > (std::uint64_t{1} << 40)) throw UsageError("--n: " + n_text_ + " is above 2^40 elements");
  if (options_.reps < 1 || options_.reps > 100000) throw UsageError("--reps must be between 1 and 100000");
  if (options_.warmup < 0 || options_.warmup > 100000) throw UsageError("--warmup must be between 0 and 100000");
  if (options_.device < 0) throw UsageError("--device must be a device ordinal (0, 1, ...)");
  try {
    options_.format = parse_format(format_text_);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--format: ") + error.what());
  }
  options_.stages.clear();
  for (const std::string& selector : stage_selectors_) {
    std::string lower = selector;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "lib" || lower == "library") {
      for (const StageInfo& stage : stages_)
        if (stage.kind == RowKind::library) options_.stages.push_back(stage.name);
      continue;
    }
    options_.stages.push_back(resolve_stage(selector));
  }
}

std::string ChapterCli::resolve_stage(const std::string& selector) const {
  std::string lower = selector;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "cpu" || lower == "reference") return "cpu";
  const bool numeric =
      !lower.empty() && std::all_of(lower.begin(), lower.end(), [](unsigned char c) { return std::isdigit(c); });
  for (const StageInfo& stage : stages_) {
    if (numeric && stage.kind == RowKind::kernel && std::to_string(stage.number) == lower) return stage.name;
    std::string name = stage.name;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (name == lower) return stage.name;
  }
  throw UsageError("--stage: unknown stage '" + selector + "' (--list shows the stages)");
}

std::string ChapterCli::stage_listing() const {
  std::ostringstream out;
  out << "chapter " << chapter_.id << " " << chapter_.name << ": " << chapter_.title << "\n";
  std::size_t width = 3;
  for (const StageInfo& stage : stages_) width = std::max(width, stage.name.size());
  for (const StageInfo& stage : stages_) {
    const std::string number = stage.kind == RowKind::kernel ? std::to_string(stage.number) : "lib";
    out << "  " << std::string(3 - std::min<std::size_t>(3, number.size()), ' ') << number << "  " << stage.name
        << std::string(width - stage.name.size(), ' ') << "  " << stage.lesson << "\n";
  }
  out << "  cpu  "
      << "reference" << std::string(width > 9 ? width - 9 : 0, ' ') << "  " << chapter_.reference_lesson << "\n";
  return out.str();
}

}  // namespace stepwise
