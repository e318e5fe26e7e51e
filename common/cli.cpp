#include "cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <utility>

#include "sizes.hpp"

namespace stepwise {
namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

CLI::Validator unsigned_decimal() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        try {
          value = std::to_string(parse_unsigned(value));
          return {};
        } catch (const std::invalid_argument& error) {
          return error.what();
        }
      },
      "UINT64");
}

}  // namespace

bool CommonOptions::selects(const std::string& stage_name) const {
  return stages.empty() || std::find(stages.begin(), stages.end(), stage_name) != stages.end();
}

CLI::Validator decimal_in(std::int64_t min, std::int64_t max) {
  return CLI::Validator(
      [min, max](std::string& value) -> std::string {
        try {
          value = std::to_string(parse_decimal(value, min, max));
          return {};
        } catch (const std::invalid_argument& error) {
          return error.what();
        }
      },
      "INT in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
}

CLI::Validator parsed_by(std::function<void(const std::string&)> parse, const std::string& description) {
  return CLI::Validator(
      [parse = std::move(parse)](std::string& value) -> std::string {
        try {
          parse(value);
          return {};
        } catch (const std::invalid_argument& error) {
          return error.what();
        }
      },
      description);
}

std::string shell_quote(const std::string& argument) {
  const bool plain = !argument.empty() && std::all_of(argument.begin(), argument.end(), [](unsigned char c) {
    return std::isalnum(c) || std::string("-_=.,/:^+@%").find(static_cast<char>(c)) != std::string::npos;
  });
  if (plain) return argument;
  std::string quoted = "'";
  for (char c : argument) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

void require_writable(const std::string& path, const std::string& option) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path file(path);
  if (fs::is_directory(file, error)) throw UsageError(option + " " + path + ": is a directory");
  const fs::path parent = file.has_parent_path() ? file.parent_path() : fs::path(".");
  if (!fs::is_directory(parent, error))
    throw UsageError(option + " " + path + ": directory " + parent.string() + " does not exist");
  if (access(parent.c_str(), W_OK) != 0)
    throw UsageError(option + " " + path + ": directory " + parent.string() + " is not writable");
  if (fs::exists(file, error) && access(file.c_str(), W_OK) != 0)
    throw UsageError(option + " " + path + ": the file exists and is not writable");
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream file(temporary, std::ios::binary);
    file << text;
    file.flush();
    if (!file) {
      std::remove(temporary.c_str());
      throw std::runtime_error("could not write " + path);
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw std::runtime_error("could not write " + path);
  }
}

ChapterCli::ChapterCli(ChapterInfo chapter, std::vector<StageInfo> stages)
    : chapter_(std::move(chapter)),
      stages_(std::move(stages)),
      app_("chapter " + chapter_.id + " " + chapter_.name + ": " + chapter_.title) {
  options_.n = chapter_.default_n;
  n_text_ = format_count(chapter_.default_n);
  seed_text_ = std::to_string(options_.seed);
  app_.add_option("--n", n_text_,
                  "Number of elements: 1000000, 1M, 16Mi, 2^26, 2^20+3 (K/M/G decimal, Ki/Mi/Gi binary)")
      ->capture_default_str();
  app_.add_option("--stage", stage_selectors_,
                  "Run only this stage (number or name; repeatable; 'lib' = library rows, 'cpu' = reference)");
  add_flag("--list", options_.list, "List the stages with their lessons and launch shapes, and exit");
  app_.add_option("--reps", options_.reps, "Timed repetitions per stage (the median is reported)")
      ->capture_default_str()
      ->transform(decimal_in(1, 100000));
  app_.add_option("--warmup", options_.warmup, "Untimed runs before timing")
      ->capture_default_str()
      ->transform(decimal_in(0, 100000));
  app_.add_option("--seed", seed_text_, "Seed of the input data (a decimal integer, 0 to 2^64 - 1)")
      ->capture_default_str()
      ->transform(unsigned_decimal());
  app_.add_option("--format", format_text_, "Report format on stdout: table, markdown, csv or json")
      ->capture_default_str()
      ->check(CLI::IsMember({"table", "markdown", "csv", "json"}));
  add_flag("--compact", compact_,
           "Table and markdown with a slide-sized column set (stage, shape, ms, GB/s, speedups)");
  app_.add_option("--output", options_.output,
                  "Also write the report, in --format, to this file (the table still goes to stdout)");
  app_.add_option("--device", options_.device, "CUDA device ordinal")
      ->capture_default_str()
      ->transform(decimal_in(0, 1023));
  CLI::Option* warm = add_flag("--warm-cache", options_.warm_cache, "Do not flush L2 between repetitions");
  app_.add_option("--flush", options_.flush,
                  "How L2 is flushed before each repetition: read (default: leaves no dirty lines) or write (a "
                  "memset: the timed work pays for writing its dirty lines back)")
      ->capture_default_str()
      ->check(CLI::IsMember({"read", "write"}))
      ->excludes(warm);
  add_flag("--sweep", options_.sweep,
           "Run every selected stage at every launch shape it lists; report the best shape per stage");
  for (const CLI::Option* option : app_.get_options())
    if (option->get_name() != "--help") common_options_.push_back(option->get_name());
  add_flag("--check-options", check_only_, "Validate the options and exit (used by the tour)")->group("");
  add_flag("--list-options", list_options_, "Print the options this chapter accepts and exit (used by the tour)")
      ->group("");
}

CLI::Option* ChapterCli::add_flag(const std::string& name, bool& target, const std::string& help) {
  return app_.add_flag(name, target, help)->disable_flag_override();
}

CLI::Option* ChapterCli::option(const std::string& name) { return app_.get_option(name); }

CLI::Option* ChapterCli::add_analyze_flag(bool& target, const std::string& help,
                                          const std::vector<std::string>& reads) {
  CLI::Option* analyze = add_flag("--analyze", target, help);
  for (const std::string& name : common_options_)
    if (std::find(reads.begin(), reads.end(), name) == reads.end()) analyze->excludes(option(name));
  return analyze;
}

std::optional<int> ChapterCli::parse(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "stepwise";
  options_.command.clear();
  for (int i = 0; i < argc; ++i) options_.command += (i == 0 ? "" : " ") + shell_quote(argv[i]);
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app_.help();
    return kExitOk;
  } catch (const CLI::ParseError& error) {
    std::cerr << program << ": error: " << error.what() << " (see --help)\n";
    return kExitUsage;
  }
  return finish(program);
}

std::optional<int> ChapterCli::parse(const std::vector<std::string>& arguments) {
  std::vector<const char*> argv = {"stepwise"};
  for (const auto& argument : arguments) argv.push_back(argument.c_str());
  return parse(static_cast<int>(argv.size()), argv.data());
}

std::optional<int> ChapterCli::finish(const std::string& program) {
  if (list_options_) {
    std::cout << option_listing();
    return kExitOk;
  }
  try {
    validate();
  } catch (const std::exception& error) {
    std::cerr << program << ": error: " << error.what() << "\n";
    return kExitUsage;
  }
  if (check_only_) return kExitOk;
  if (options_.list) {
    std::cout << stage_listing();
    return kExitOk;
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
  options_.seed = parse_unsigned(seed_text_);
  options_.format = parse_format(format_text_);
  options_.columns = compact_ ? Columns::compact : Columns::full;
  if (options_.warm_cache) options_.flush = "none";
  if (!options_.output.empty()) require_writable(options_.output, "--output");
  options_.stages.clear();
  for (const std::string& selector : stage_selectors_) {
    const std::string lower = lowercase(selector);
    if (lower == "lib" || lower == "library") {
      for (const StageInfo& stage : stages_)
        if (stage.kind == RowKind::library) options_.stages.push_back(stage.name);
      continue;
    }
    options_.stages.push_back(resolve_stage(selector));
  }
}

std::string ChapterCli::resolve_stage(const std::string& selector) const {
  const std::string lower = lowercase(selector);
  if (lower == "cpu" || lower == "reference") return "cpu";
  const bool numeric =
      !lower.empty() && std::all_of(lower.begin(), lower.end(), [](unsigned char c) { return std::isdigit(c); });
  for (const StageInfo& stage : stages_) {
    if (numeric && stage.kind == RowKind::kernel && std::to_string(stage.number) == lower) return stage.name;
    if (lowercase(stage.name) == lower) return stage.name;
  }
  throw UsageError("--stage: unknown stage '" + selector + "' (--list shows the stages)");
}

std::string ChapterCli::stage_listing() const {
  std::ostringstream out;
  out << "chapter " << chapter_.id << " " << chapter_.name << ": " << chapter_.title << "\n";
  std::size_t name_width = 9;  // "reference"
  std::size_t shape_width = 5;
  for (const StageInfo& stage : stages_) {
    name_width = std::max(name_width, stage.name.size());
    shape_width = std::max(shape_width, describe(stage.shape).size());
  }
  const auto line = [&](const std::string& number, const std::string& name, const std::string& shape,
                        const std::string& lesson) {
    out << "  " << std::string(3 - std::min<std::size_t>(3, number.size()), ' ') << number << "  " << name
        << std::string(name_width - name.size(), ' ') << "  " << shape << std::string(shape_width - shape.size(), ' ')
        << "  " << lesson << "\n";
  };
  line("#", "stage", "shape", "lesson");
  for (const StageInfo& stage : stages_) {
    const std::string sweep =
        stage.sweep.empty() ? "" : " [--sweep: " + std::to_string(stage.sweep.size()) + " shapes]";
    line(stage.kind == RowKind::kernel ? std::to_string(stage.number) : "lib", stage.name, describe(stage.shape),
         stage.lesson + sweep);
  }
  line("cpu", "reference", "-", chapter_.reference_lesson);
  return out.str();
}

std::string ChapterCli::option_listing() const {
  std::ostringstream out;
  for (const CLI::Option* option : app_.get_options()) {
    for (const std::string& name : option->get_lnames())
      out << "--" << name << (option->get_expected_max() == 0 ? " flag" : " value") << "\n";
  }
  return out.str();
}

}  // namespace stepwise
