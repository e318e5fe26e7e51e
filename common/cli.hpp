/// @file cli.hpp
/// The command line every chapter shares (CLI11), validated before the GPU is touched.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "report.hpp"

namespace stepwise {

/// Bad input from the user (an option, a size, a stage name): exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a chapter is; printed in headers, --help and --list.
struct ChapterInfo {
  std::string id;     ///< "00"
  std::string name;   ///< "bandwidth": also the executable's suffix
  std::string title;  ///< one line for --help
  std::uint64_t default_n = 0;
  std::uint64_t min_n = 1;       ///< smallest --n the chapter accepts
  std::string reference_lesson;  ///< what the CPU reference row computes
};

/// A stage as --list shows it and --stage selects it.
struct StageInfo {
  int number = 0;  ///< 1, 2, ... for kernels; 0 for library baselines
  std::string name;
  std::string lesson;  ///< what changed from the previous stage and why it should be faster
  RowKind kind = RowKind::kernel;
};

/// The options every chapter has.
struct CommonOptions {
  std::uint64_t n = 0;
  /// Canonical names selected by --stage ("cpu" for the reference; "lib" expands to every
  /// library row); empty: all.
  std::vector<std::string> stages;
  int reps = 20;
  int warmup = 3;
  std::uint64_t seed = 20261121;
  Format format = Format::table;
  std::string output;  ///< --output FILE, empty for none
  int device = 0;
  bool warm_cache = false;
  bool list = false;
  /// True when @p stage_name was selected (or nothing was, which selects all).
  bool selects(const std::string& stage_name) const;
};

/// Parses a chapter's command line: the common options plus whatever the chapter adds
/// to app() before calling parse().
class ChapterCli {
 public:
  ChapterCli(ChapterInfo chapter, std::vector<StageInfo> stages);

  /// The underlying CLI11 app, for chapter-specific options (--type, --sweep, ...).
  CLI::App& app() { return app_; }

  /// Parses and validates. Returns an exit code when the program should stop now
  /// (0 after --help or --list, 2 after one line naming a bad option), else nullopt.
  std::optional<int> parse(int argc, const char* const* argv);
  /// The same, from a list of arguments without the program name (for tests).
  std::optional<int> parse(const std::vector<std::string>& arguments);

  const CommonOptions& options() const { return options_; }
  const ChapterInfo& chapter() const { return chapter_; }
  const std::vector<StageInfo>& stages() const { return stages_; }

  /// The stage list as --list prints it.
  std::string stage_listing() const;

 private:
  std::optional<int> finish(const std::string& program);
  void validate();
  std::string resolve_stage(const std::string& selector) const;

  ChapterInfo chapter_;
  std::vector<StageInfo> stages_;
  CLI::App app_;
  CommonOptions options_;
  std::string n_text_;
  std::string format_text_ = "table";
  std::vector<std::string> stage_selectors_;
};

}  // namespace stepwise
