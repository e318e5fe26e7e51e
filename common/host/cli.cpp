#include "host/cli.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <system_error>
#include <utility>

#include "host/report.hpp"
#include "host/sizes.hpp"

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

CLI::Validator real_in(double min, double max) {
  std::ostringstream description;
  description << "NUMBER in [" << min << ", " << max << "]";
  return CLI::Validator(
      [min, max](std::string& value) -> std::string {
        try {
          parse_plain_real(value, min, max);
          return {};
        } catch (const std::invalid_argument& error) {
          return error.what();
        }
      },
      description.str());
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

namespace {

/// Where write_file_atomically writes, and how.
struct OutputTarget {
  std::string path;       ///< the file itself, or the file a symbolic link finally points to
  bool in_place = false;  ///< a character device or a FIFO: opened and written, never replaced
  bool exists = false;    ///< a regular file that is there already
  mode_t mode = 0;        ///< its permissions, kept when it is replaced
};

std::string system_error_text(int error) { return std::generic_category().message(error); }

/// Classifies @p path for writing a report.
/// @throws std::invalid_argument with the reason it cannot be written (without the path)
OutputTarget resolve_output(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) throw std::invalid_argument("the value is empty");
  struct stat link_status {};
  if (::lstat(path.c_str(), &link_status) != 0) {
    if (errno != ENOENT) throw std::invalid_argument(system_error_text(errno));
    const fs::path file(path);
    const fs::path parent = file.has_parent_path() ? file.parent_path() : fs::path(".");
    std::error_code error;
    if (!fs::is_directory(parent, error))
      throw std::invalid_argument("directory " + parent.string() + " does not exist");
    if (::access(parent.c_str(), W_OK) != 0)
      throw std::invalid_argument("directory " + parent.string() + " is not writable");
    return {path, false, false, 0};
  }
  std::string target = path;
  struct stat status = link_status;
  if (S_ISLNK(link_status.st_mode)) {
    if (::stat(path.c_str(), &status) != 0) {
      if (errno == ENOENT) throw std::invalid_argument("is a dangling symbolic link");
      if (errno == ELOOP) throw std::invalid_argument("is a loop of symbolic links");
      throw std::invalid_argument(system_error_text(errno));
    }
    std::error_code error;
    target = fs::canonical(path, error).string();
    if (error) throw std::invalid_argument(error.message());
  }
  if (S_ISDIR(status.st_mode)) throw std::invalid_argument("is a directory");
  if (S_ISCHR(status.st_mode) || S_ISFIFO(status.st_mode)) {
    if (::access(target.c_str(), W_OK) != 0) throw std::invalid_argument("is not writable");
    return {target, true, true, status.st_mode};
  }
  if (!S_ISREG(status.st_mode))
    throw std::invalid_argument(std::string(S_ISBLK(status.st_mode) ? "is a block device" : "is a socket") +
                                ": a report goes to a regular file, a character device (/dev/null) or a FIFO");
  struct stat standard_output {};
  if (::fstat(STDOUT_FILENO, &standard_output) == 0 && standard_output.st_dev == status.st_dev &&
      standard_output.st_ino == status.st_ino)
    throw std::invalid_argument(
        "is the file stdout is redirected to, where the table goes: write the report elsewhere");
  const fs::path parent = fs::path(target).has_parent_path() ? fs::path(target).parent_path() : fs::path(".");
  if (::access(target.c_str(), W_OK) != 0) throw std::invalid_argument("the file exists and is not writable");
  if (::access(parent.c_str(), W_OK) != 0)
    throw std::invalid_argument("directory " + parent.string() + " is not writable");
  return {target, false, true, status.st_mode};
}

/// Writes all of @p text to @p descriptor. @return 0, or the errno of the failed write.
int write_all(int descriptor, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t count = ::write(descriptor, text.data() + written, text.size() - written);
    if (count < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    written += static_cast<std::size_t>(count);
  }
  return 0;
}

/// Writes @p text into the character device or FIFO @p path, which is opened without waiting for
/// a reader and then written blocking.
void write_in_place(const std::string& path, const std::string& text) {
  const int descriptor = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (descriptor < 0) {
    if (errno == ENXIO) throw std::runtime_error("could not write " + path + ": no process reads the FIFO");
    throw std::runtime_error("could not write " + path + ": " + system_error_text(errno));
  }
  struct stat status {};
  int error = ::fstat(descriptor, &status) != 0 ? errno : 0;
  if (error == 0 && !S_ISCHR(status.st_mode) && !S_ISFIFO(status.st_mode)) {
    ::close(descriptor);
    throw std::runtime_error("could not write " + path + ": it was replaced by another kind of file");
  }
  const int flags = ::fcntl(descriptor, F_GETFL);
  if (error == 0 && (flags < 0 || ::fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) != 0)) error = errno;
  if (error == 0) error = write_all(descriptor, text);
  if (::close(descriptor) != 0 && error == 0) error = errno;
  if (error != 0) throw std::runtime_error("could not write " + path + ": " + system_error_text(error));
}

/// Writes @p text to a temporary file beside @p target and renames it over @p target.
void write_by_rename(const OutputTarget& target, const std::string& text) {
  std::string temporary;
  int descriptor = -1;
  int open_error = 0;
  for (int attempt = 0; descriptor < 0 && attempt < 100; ++attempt) {
    temporary = target.path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(attempt);
    descriptor = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    open_error = errno;
    if (descriptor < 0 && open_error != EEXIST) break;
  }
  if (descriptor < 0) throw std::runtime_error("could not write " + target.path + ": " + system_error_text(open_error));
  int error = target.exists && ::fchmod(descriptor, target.mode & 07777) != 0 ? errno : 0;
  if (error == 0) error = write_all(descriptor, text);
  if (::close(descriptor) != 0 && error == 0) error = errno;
  if (error == 0 && std::rename(temporary.c_str(), target.path.c_str()) != 0) error = errno;
  if (error != 0) {
    std::remove(temporary.c_str());
    throw std::runtime_error("could not write " + target.path + ": " + system_error_text(error));
  }
}

/// CLI11's message for @p error, the same with every CLI11 release: arguments nobody takes in the
/// order they were typed (2.1 listed them backwards), and without the program's name in front
/// (2.4 and later add it).
std::string parse_error_text(const CLI::App& app, const CLI::ParseError& error) {
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    const std::vector<std::string> extras = app.remaining();
    std::string text =
        extras.size() == 1 ? "The following argument was not expected:" : "The following arguments were not expected:";
    for (const std::string& extra : extras) text += " " + shell_quote(extra);
    return text;
  }
  const std::string text = error.what();
  const std::string prefix = app.get_name() + ": ";
  return !app.get_name().empty() && text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : text;
}

}  // namespace

void check_option_syntax(const CLI::App& app, const std::vector<std::string>& arguments) {
  for (const std::string& argument : arguments) {
    if (argument == "--") return;  // what follows is not an option
    const std::size_t equals = argument.find('=');
    if (argument.rfind("--", 0) != 0 || equals == std::string::npos) continue;
    const std::string name = argument.substr(0, equals);
    const CLI::Option* option = app.get_option_no_throw(name);
    if (option == nullptr) continue;
    if (option->get_expected_max() == 0)
      throw UsageError(shell_quote(argument) + ": " + name + " is a flag and takes no value");
    if (equals + 1 == argument.size()) throw UsageError(name + " '': the value is empty");
  }
}

void require_writable(const std::string& path, const std::string& option) {
  try {
    resolve_output(path);
  } catch (const std::invalid_argument& error) {
    throw UsageError(option + " " + shell_quote(path) + ": " + error.what());
  }
}

void write_file_atomically(const std::string& path, const std::string& text) {
  OutputTarget target;
  try {
    target = resolve_output(path);
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error("could not write " + shell_quote(path) + ": " + error.what());
  }
  if (target.in_place)
    write_in_place(target.path, text);
  else
    write_by_rename(target, text);
}

int finish_stdout(const std::string& program, int exit_code) {
  errno = 0;
  std::cout.flush();
  const bool stream_failed = std::cout.fail();
  const bool flush_failed = std::fflush(stdout) != 0;
  const int error = errno;
  const bool failed = stream_failed || flush_failed || std::ferror(stdout) != 0;
  if (!failed) return exit_code;
  std::cout.clear();
  std::clearerr(stdout);
  if (exit_code != kExitOk) return exit_code;
  std::cerr << program << ": error: writing to stdout failed"
            << (error != 0 ? ": " + system_error_text(error) : std::string()) << "\n";
  return kExitFailed;
}

namespace {
/// A chapter's table with a malformed shapes-by-size list is a bug in a stage file: say which.
std::vector<StageInfo> checked_table(std::vector<StageInfo> stages) {
  for (const StageInfo& stage : stages) {
    const std::string problem = shapes_by_n_problem(stage);
    if (!problem.empty())
      throw std::logic_error("stage " + std::to_string(stage.number) + " (" + stage.name +
                             "): shapes_by_n: " + problem);
  }
  return stages;
}
}  // namespace

ChapterCli::ChapterCli(ChapterInfo chapter, std::vector<StageInfo> stages)
    : ChapterCli([chapter] { return chapter; }, [stages] { return stages; }) {}

ChapterCli::ChapterCli(std::function<ChapterInfo()> info, std::function<std::vector<StageInfo>()> stages)
    : chapter_source_(std::move(info)),
      stage_source_(std::move(stages)),
      chapter_(chapter_source_()),
      stages_(checked_table(stage_source_())),
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
  app_.add_option("--json", options_.json_output,
                  "Also write the JSON report to this file, whatever --format is (one run gives the table and the "
                  "figures: tools/plot reads it)");
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
  add_flag("--variants", options_.variants,
           "Also run the variant rows of the selected stages: a stage with one of its changes undone each, listed "
           "and reported as '7 - change' after it (--list shows them)")
      ->excludes(option("--sweep"));
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
    check_option_syntax(app_, std::vector<std::string>(argv + std::min(argc, 1), argv + argc));
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    refresh();  // the help shows the default --n of the problem the other options picked
    std::cout << app_.help();
    return finish_stdout(program, kExitOk);
  } catch (const CLI::ParseError& error) {
    std::cerr << program << ": error: " << parse_error_text(app_, error) << " (see --help)\n";
    return kExitUsage;
  } catch (const UsageError& error) {
    std::cerr << program << ": error: " << error.what() << "\n";
    return kExitUsage;
  }
  return finish(program);
}

std::optional<int> ChapterCli::parse(const std::vector<std::string>& arguments) {
  std::vector<const char*> argv = {"stepwise"};
  for (const auto& argument : arguments) argv.push_back(argument.c_str());
  return parse(static_cast<int>(argv.size()), argv.data());
}

void ChapterCli::refresh() {
  chapter_ = chapter_source_();
  stages_ = checked_table(stage_source_());
  app_.description("chapter " + chapter_.id + " " + chapter_.name + ": " + chapter_.title);
  CLI::Option* n = app_.get_option("--n");
  if (n->count() == 0) {
    n_text_ = format_count(chapter_.default_n);
    n->default_str(n_text_);
  }
}

std::optional<int> ChapterCli::finish(const std::string& program) {
  refresh();
  if (list_options_) {
    std::cout << option_listing();
    return finish_stdout(program, kExitOk);
  }
  try {
    validate();
    require_tuned_stage_selected();
    require_variant_selected();
    if (chapter_validate_) chapter_validate_(options_);
  } catch (const std::exception& error) {
    std::cerr << program << ": error: " << error.what() << "\n";
    return kExitUsage;
  }
  if (check_only_) return kExitOk;
  if (options_.list) {
    std::cout << stage_listing();
    return finish_stdout(program, kExitOk);
  }
  return std::nullopt;
}

void ChapterCli::validate() {
  for (const CLI::Option* option : app_.get_options()) {
    if (option->get_expected_max() == 0) continue;  // a flag
    for (const std::string& value : option->results())
      if (value.empty()) throw UsageError(option->get_name() + " '': the value is empty");
  }
  const CLI::Option* analyze = app_.get_option_no_throw("--analyze");
  options_.analyze = analyze != nullptr && analyze->count() > 0;
  options_.n_text = n_text_;
  options_.n_given = app_.get_option("--n")->count() > 0;
  try {
    options_.n = parse_count(n_text_);
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--n: ") + error.what());
  }
  if (options_.n < chapter_.min_n)
    throw UsageError("--n: " + std::to_string(options_.n) + " is below the smallest size this chapter accepts (" +
                     std::to_string(chapter_.min_n) + ")");
  if (options_.n > kMaxElements)
    throw UsageError("--n: " + n_text_ + " is above " + format_count(kMaxElements) + " elements");
  options_.seed = parse_unsigned(seed_text_);
  options_.format = parse_format(format_text_);
  options_.columns = compact_ ? Columns::compact : Columns::full;
  if (options_.warm_cache) options_.flush = "none";
  if (!options_.output.empty()) require_writable(options_.output, "--output");
  if (!options_.json_output.empty()) require_writable(options_.json_output, "--json");
  if (!options_.output.empty() && !options_.json_output.empty() &&
      std::filesystem::weakly_canonical(options_.output) == std::filesystem::weakly_canonical(options_.json_output))
    throw UsageError("--json " + shell_quote(options_.json_output) + ": --output writes the same file");
  options_.stages.clear();
  for (const std::string& selector : stage_selectors_) {
    const std::string lower = lowercase(selector);
    if (lower == "lib" || lower == "library") {
      const std::size_t before = options_.stages.size();
      for (const StageInfo& stage : stages_)
        if (stage.kind == RowKind::library) options_.stages.push_back(stage.name);
      if (options_.stages.size() == before)
        throw UsageError("--stage " + selector + ": this table has no library row (--list shows the stages)");
      continue;
    }
    options_.stages.push_back(resolve_stage(selector));
  }
}

void ChapterCli::require_tuned_stage_selected() const {
  for (const CLI::Option* option : app_.get_options()) {
    if (option->count() == 0) continue;
    std::vector<const StageInfo*> tuned;
    for (const StageInfo& stage : stages_)
      if (stage.variant.empty() &&
          std::find(stage.options.begin(), stage.options.end(), option->get_name()) != stage.options.end())
        tuned.push_back(&stage);
    if (tuned.empty()) continue;
    if (std::any_of(tuned.begin(), tuned.end(), [&](const StageInfo* stage) { return options_.selects(stage->name); }))
      continue;
    std::vector<int> numbers;
    for (const StageInfo* stage : tuned) numbers.push_back(stage->number);
    throw UsageError(option->get_name() + ": it changes " + describe_stage_numbers(numbers) +
                     " only, which --stage leaves out");
  }
}

void ChapterCli::require_variant_selected() const {
  if (!options_.variants) return;
  std::vector<int> numbers;  // the stages that have variant rows
  bool selected = false;
  for (const StageInfo& stage : stages_) {
    if (stage.variant.empty()) continue;
    if (numbers.empty() || numbers.back() != stage.number) numbers.push_back(stage.number);
    selected = selected || options_.selects(stage.name);
  }
  if (numbers.empty()) throw UsageError("--variants: no stage of this table has variant rows");
  if (!selected)
    throw UsageError("--variants: only " + describe_stage_numbers(numbers) + " of this table " +
                     (numbers.size() == 1 ? "has" : "have") + " variant rows, which --stage leaves out");
}

std::string describe_stage_numbers(const std::vector<int>& numbers) {
  std::vector<std::string> parts;  // a run of three or more consecutive numbers as a range
  for (std::size_t i = 0; i < numbers.size();) {
    std::size_t last = i;
    while (last + 1 < numbers.size() && numbers[last + 1] == numbers[last] + 1) ++last;
    if (last >= i + 2) {
      parts.push_back(std::to_string(numbers[i]) + "-" + std::to_string(numbers[last]));
      i = last + 1;
    } else {
      parts.push_back(std::to_string(numbers[i++]));
    }
  }
  return (numbers.size() == 1 ? "stage " : "stages ") + join_words(parts, "and");
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
    name_width = std::max(name_width, stage.variant.empty() ? stage.name.size() : stage.variant.size());
    shape_width = std::max(shape_width, describe(stage.shape).size());
  }
  std::size_t number_width = 3;  // "lib", "cpu"
  for (const StageInfo& stage : stages_)
    if (!stage.variant.empty()) number_width = std::max(number_width, std::to_string(stage.number).size() + 2);
  const auto line = [&](const std::string& number, const std::string& name, const std::string& shape,
                        const std::string& lesson) {
    out << "  " << std::string(number_width - std::min(number_width, number.size()), ' ') << number << "  " << name
        << std::string(name_width - name.size(), ' ') << "  " << shape << std::string(shape_width - shape.size(), ' ')
        << "  " << lesson << "\n";
  };
  line("#", "stage", "shape", "lesson");
  for (const StageInfo& stage : stages_) {
    const std::string sweep =
        stage.sweep.empty() ? "" : " [--sweep: " + std::to_string(stage.sweep.size()) + " shapes]";
    if (!stage.variant.empty()) {  // `  7 -  packed flags`: the stage's number, then the change it undoes
      line(std::to_string(stage.number) + " -", stage.variant, describe(stage.shape), stage.lesson + " [--variants]");
      continue;
    }
    std::string by_size;  // ` [n <= 2^22: 128x11; n <= 2^24: 128x15; above: 512x23]`
    for (const SizedShape& sized : stage.shapes_by_n)
      by_size += (by_size.empty() ? " [n <= " : "; n <= ") + format_count(sized.up_to_n) + ": " + describe(sized.shape);
    if (!by_size.empty()) by_size += "; above: " + describe(stage.shape) + "]";
    line(stage.kind == RowKind::kernel ? std::to_string(stage.number) : "lib", stage.name, describe(stage.shape),
         stage.lesson + by_size + sweep);
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
