/// @file cli.hpp
/// The command line every chapter shares (CLI11), validated before the GPU is touched.
/// Host code only: no CUDA header.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/types.hpp"

namespace stepwise {

/// Bad input from the user (an option, a size, a stage name, a file): exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The options every chapter has.
struct CommonOptions {
  std::uint64_t n = 0;
  std::string n_text;    ///< --n as the user typed it, or the default's text
  bool n_given = false;  ///< whether the user gave --n
  /// Canonical names selected by --stage ("cpu" for the reference; "lib" expands to every
  /// library row); empty: all.
  std::vector<std::string> stages;
  int reps = 20;
  int warmup = 3;
  std::uint64_t seed = 20261121;
  Format format = Format::table;
  Columns columns = Columns::full;  ///< --compact: the slide-sized column set
  std::string output;               ///< --output FILE, empty for none
  std::string json_output;          ///< --json FILE: the JSON report too, whatever --format is; empty for none
  int device = 0;
  bool warm_cache = false;     ///< --warm-cache: no flush between repetitions
  std::string flush = "read";  ///< --flush read|write (ignored with warm_cache, which refuses it)
  bool sweep = false;          ///< --sweep: every stage at every shape it lists
  /// --variants: each selected stage that has variant rows is followed by them (StageInfo::variant)
  bool variants = false;
  bool list = false;
  bool analyze = false;  ///< --analyze was given (the chapter's checks may skip what only a run needs)
  std::string command;   ///< the command line, quoted for a POSIX shell, for the report
  /// True when @p stage_name was selected (or nothing was, which selects all).
  bool selects(const std::string& stage_name) const;
};

/// A CLI11 validator that accepts decimal integers in [@p min, @p max] only (no `0x10`, no
/// octal: `010` is ten) and rewrites the value in canonical form before CLI11 converts it.
CLI::Validator decimal_in(std::int64_t min, std::int64_t max);

/// A CLI11 validator that accepts plain decimal numbers in [@p min, @p max] only
/// (parse_plain_real: no exponent, hexadecimal, `nan` or `inf`).
CLI::Validator real_in(double min, double max);

/// A CLI11 validator that accepts what @p parse accepts: @p parse reads the value and throws
/// std::invalid_argument, whose message becomes the one-line error, when it is malformed.
/// @p description names the value in --help (`COUNT`, `random|runs:R`).
CLI::Validator parsed_by(std::function<void(const std::string&)> parse, const std::string& description);

/// Parses a chapter's command line: the common options plus whatever the chapter adds
/// to app() before calling parse().
class ChapterCli {
 public:
  /// A chapter whose info and table are fixed before parsing.
  ChapterCli(ChapterInfo chapter, std::vector<StageInfo> stages);
  /// A chapter whose info and table depend on its own options (`--problem`, `--workload`,
  /// `--flags`): @p info and @p stages are asked again once the command line is parsed, before
  /// `--n`'s default, `--stage`, `--list` and the help are settled.
  ChapterCli(std::function<ChapterInfo()> info, std::function<std::vector<StageInfo>()> stages);

  /// The underlying CLI11 app, for chapter-specific options (--type, --analyze, ...). Use
  /// add_flag() for flags, so that they refuse a value like every common flag does.
  CLI::App& app() { return app_; }
  /// Adds a chapter flag that takes no value (`--analyze=0` is refused).
  CLI::Option* add_flag(const std::string& name, bool& target, const std::string& help);

  /// The common option named @p name (`--sweep`, `--stage`, ...), for excludes() between a
  /// chapter's modes and the common options that do nothing in them.
  CLI::Option* option(const std::string& name);

  /// Adds the chapter's `--analyze` mode: a flag that needs no GPU and prints what each stage
  /// will do. @p reads names the common options the analysis uses (`{"--n", "--format"}`);
  /// every other common option is refused beside `--analyze` (exit 2), since it would do
  /// nothing. The chapter excludes its own options that do nothing there itself.
  CLI::Option* add_analyze_flag(bool& target, const std::string& help, const std::vector<std::string>& reads);

  /// Sets the chapter's own checks, run after the common ones (and so by --check-options too).
  /// They throw UsageError naming what the user typed.
  void set_validate(std::function<void(const CommonOptions&)> validate) { chapter_validate_ = std::move(validate); }

  /// Parses and validates. Returns an exit code when the program should stop now
  /// (0 after --help, --list or --check-options, 2 after one line naming a bad option, 1 when
  /// what it printed could not be written to stdout: finish_stdout()), else nullopt. Flags
  /// refuse a value, and every option refuses an empty value (check_option_syntax()).
  std::optional<int> parse(int argc, const char* const* argv);
  /// The same, from a list of arguments without the program name (for tests).
  std::optional<int> parse(const std::vector<std::string>& arguments);

  const CommonOptions& options() const { return options_; }
  const ChapterInfo& chapter() const { return chapter_; }
  const std::vector<StageInfo>& stages() const { return stages_; }

  /// The stage list as --list prints it.
  std::string stage_listing() const;
  /// Every option the chapter accepts, one per line: `--name value` or `--name flag`
  /// (--list-options prints it; the tour uses it to pass each chapter only its own options).
  std::string option_listing() const;

 private:
  std::optional<int> finish(const std::string& program);
  void refresh();
  void validate();
  void require_tuned_stage_selected() const;
  void require_variant_selected() const;
  std::string resolve_stage(const std::string& selector) const;

  std::function<ChapterInfo()> chapter_source_;
  std::function<std::vector<StageInfo>()> stage_source_;
  std::function<void(const CommonOptions&)> chapter_validate_;
  ChapterInfo chapter_;
  std::vector<StageInfo> stages_;
  CLI::App app_;
  CommonOptions options_;
  std::string n_text_;
  std::string format_text_ = "table";
  std::string seed_text_;
  std::vector<std::string> stage_selectors_;
  std::vector<std::string> common_options_;  ///< the names of the options every chapter has
  bool compact_ = false;
  bool check_only_ = false;
  bool list_options_ = false;
};

/// `stage 7`, `stages 6 and 7`, `stages 1, 3 and 8`, `stages 1-10`, `stages 1-3 and 8`: kernel
/// stage numbers in table order, as messages name them (a run of three or more consecutive
/// numbers as a range).
std::string describe_stage_numbers(const std::vector<int>& numbers);

/// Quotes @p argument for a POSIX shell when it needs quoting: `--n 2^20` stays as it is,
/// `a b` becomes `'a b'`.
std::string shell_quote(const std::string& argument);

/// Refuses what CLI11 would misread in @p arguments (the command line without the program name):
/// a flag of @p app given a value (`--list=true`, `--sweep=`: a flag takes none), and an option
/// given an empty value after `=` (`--output=`, which CLI11 fills with the next argument).
/// ChapterCli::parse calls it for every common and chapter option; a program with its own
/// CLI::App calls it before parsing.
/// @throws UsageError naming the argument as typed.
void check_option_syntax(const CLI::App& app, const std::vector<std::string>& arguments);

/// Checks that @p path can be written as --output writes it (write_file_atomically):
/// - a new file, in an existing writable directory;
/// - an existing regular file, writable, in a writable directory (it is replaced);
/// - a character device (`/dev/null`, a terminal) or a FIFO, writable (written in place);
/// - a symbolic link to any of these, judged by the file it finally points to.
/// Refused: an empty name, a directory, a dangling link or a link loop, a block device, a
/// socket, and the regular file stdout is redirected to (the report would replace the table).
/// @throws UsageError `OPTION PATH: why` naming @p option and @p path.
void require_writable(const std::string& path, const std::string& option);

/// Writes @p text to @p path, the kinds of files require_writable() accepts:
/// - a regular file (or a new one) whole or not at all: a temporary file beside it, then a rename
///   over it (an existing file keeps its permissions; through a symbolic link, the file the link
///   points to is replaced and the link stays);
/// - a character device or a FIFO in place, never replaced: `/dev/null` stays a device. A FIFO
///   must have a reader when the write begins (it is opened without waiting for one).
/// @throws std::runtime_error naming the path when the write fails or the file is of a refused kind.
void write_file_atomically(const std::string& path, const std::string& text);

/// The last step of a program that prints to stdout: flushes std::cout and C's stdout and
/// returns @p exit_code, or kExitFailed (1) after one line on stderr (`PROGRAM: error: writing
/// to stdout failed: why`) when a write to stdout failed (`--help > /dev/full`) and @p exit_code
/// was kExitOk. Other exit codes are kept. The error is reported once: the stream states are
/// cleared after it. run_main and ChapterCli::parse's early exits call it.
int finish_stdout(const std::string& program, int exit_code);

}  // namespace stepwise
