/// @file chapter.hpp
/// A chapter is a spec: what it is, its typed options, its stage table as a function of the
/// parsed options, an optional `--analyze`, and its run. Every chapter's main is one call:
///
/// @code
///   int main(int argc, char** argv) { return stepwise::run_chapter(argc, argv, stepwise::square::chapter()); }
/// @endcode
///
/// run_chapter() parses the command line into the chapter's Plan (the options write into it
/// directly: no string mirror), builds the table the plan asks for (so `--list`, `--stage`
/// and the report follow `--problem`, `--workload`, `--flags` however they were spelled), runs
/// the common checks and then the chapter's own, and only then touches the GPU:
///
/// | step | exit |
/// |---|---|
/// | `--help`, `--list`, `--list-options`, `--list-problems`, `--check-options` | 0 |
/// | a bad option, a bad combination, too little host memory | 2, one line naming what was typed |
/// | `--analyze` (no GPU needed) | 0 |
/// | no GPU | 77 |
/// | the run: every row checked, timed, reported | 0, or 1 when a check failed |
#pragma once

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "host/cli.hpp"
#include "host/harness.hpp"
#include "host/sweep_problems.hpp"
#include "host/types.hpp"

namespace stepwise {

/// A chapter's `--analyze` mode: it needs no GPU and prints what each stage will do.
template <class Plan>
struct AnalyzeMode {
  std::string help;  ///< the flag's line in --help
  /// The common options the analysis reads (`--n`, `--format`, ...): every other common option
  /// is refused beside `--analyze`, since it would do nothing there.
  std::vector<std::string> reads;
  /// The formats it prints; any other `--format` is refused.
  std::vector<Format> formats = {Format::table};
  /// The analysis of @p plan, in @p options' format. Null: the chapter has no `--analyze`.
  std::string (*print)(const Plan& plan, const CommonOptions& options) = nullptr;
};

/// Everything a chapter's main needs, declared once.
/// @tparam Plan the chapter's typed options (a default-constructed Plan holds the defaults).
template <class Plan>
struct Chapter {
  /// What --help, --list and the report's header say, for @p plan (a default --n may depend on
  /// the problem the plan picks).
  ChapterInfo (*info)(const Plan& plan) = nullptr;
  /// Adds the chapter's options to @p cli, each written straight into a field of @p plan (with
  /// CLI11 transformers and validators: bad values are refused while parsing).
  void (*add_options)(ChapterCli& cli, Plan& plan) = nullptr;
  /// The stage table @p plan runs, as --list, --stage and the report see it.
  std::vector<StageInfo> (*stages)(const Plan& plan) = nullptr;
  /// Optional: the checks no single option can make, run after the common ones (so that
  /// --check-options makes them too); it may complete @p plan from @p options (sizes).
  /// @throws UsageError naming what the user typed.
  void (*validate)(Plan& plan, const CommonOptions& options) = nullptr;
  /// Optional: refuses a run whose host memory would not fit (require_host_bytes), after
  /// --analyze and before the GPU is opened, so that exit 2 comes before exit 77.
  void (*require_host_memory)(const Plan& plan, const CommonOptions& options) = nullptr;
  /// Optional: `--analyze`.
  AnalyzeMode<Plan> analyze;
  /// Builds the plan's problem on the device and runs its table through @p session.
  /// @return kExitOk, or kExitFailed when a check failed.
  int (*run)(Session& session, const Plan& plan) = nullptr;
  /// The problems of the size sweep (`--list-problems`, the tour's `--problems`): each variant
  /// whose best stage is compared with the library across sizes. Empty for a chapter without a
  /// library row, which the sweep leaves out.
  std::vector<SweepProblem> problems;
};

/// A chapter's command line parsed into its plan, exactly as run_chapter() parses it: the
/// chapter's tests parse through it too, so that they test the parser main uses.
/// @code
///   ParsedChapter<Plan> parsed(chapter());
///   REQUIRE_FALSE(parsed.parse({"--problem=search"}).has_value());
///   CHECK(parsed.plan().problem == ProblemKind::search);
/// @endcode
template <class Plan>
class ParsedChapter {
 public:
  explicit ParsedChapter(Chapter<Plan> chapter)
      : chapter_(std::move(chapter)),
        cli_([this] { return chapter_.info(plan_); }, [this] { return chapter_.stages(plan_); }) {
    if (chapter_.analyze.print != nullptr)
      cli_.add_analyze_flag(analyze_, chapter_.analyze.help, chapter_.analyze.reads);
    chapter_.add_options(cli_, plan_);
    cli_.add_flag("--list-problems", list_problems_,
                  "Print the problems of the size sweep, one per line: label, tab, options (used by the tour)")
        ->group("");
    cli_.set_validate([this](const CommonOptions& options) {
      if (analyze_) {
        const auto& formats = chapter_.analyze.formats;
        if (std::find(formats.begin(), formats.end(), options.format) == formats.end())
          throw UsageError(std::string("--format ") + to_string(options.format) + ": --analyze prints " +
                           join_formats(formats));
      }
      if (chapter_.validate != nullptr) chapter_.validate(plan_, options);
    });
  }
  ParsedChapter(const ParsedChapter&) = delete;
  ParsedChapter& operator=(const ParsedChapter&) = delete;

  /// ChapterCli::parse: an exit code when the program should stop now (0 after --help, --list
  /// or --list-problems, 2 after one line naming a bad option), else nullopt and the plan is
  /// complete.
  std::optional<int> parse(int argc, const char* const* argv) {
    const std::optional<int> code = cli_.parse(argc, argv);
    if (code || !list_problems_) return code;
    std::cout << sweep_problem_listing(chapter_.problems);
    return finish_stdout(argc > 0 ? argv[0] : "stepwise", kExitOk);
  }
  /// The same, from the arguments without the program name.
  std::optional<int> parse(const std::vector<std::string>& arguments) {
    std::vector<const char*> argv = {"stepwise"};
    for (const std::string& argument : arguments) argv.push_back(argument.c_str());
    return parse(static_cast<int>(argv.size()), argv.data());
  }

  const Chapter<Plan>& chapter() const { return chapter_; }
  Plan& plan() { return plan_; }
  ChapterCli& cli() { return cli_; }
  const CommonOptions& options() const { return cli_.options(); }
  /// Whether --analyze was given.
  bool analyze() const { return analyze_; }

 private:
  Chapter<Plan> chapter_;
  Plan plan_;
  bool analyze_ = false;
  bool list_problems_ = false;
  ChapterCli cli_;
};

/// Parses @p argv into @p chapter's plan and does what it asks (see the file's table).
template <class Plan>
int run_chapter(int argc, char** argv, const Chapter<Plan>& chapter) {
  return run_main(argc > 0 ? argv[0] : "stepwise", [&] {
    ParsedChapter<Plan> parsed(chapter);
    if (auto exit_code = parsed.parse(argc, argv)) return *exit_code;
    const Plan& plan = parsed.plan();
    if (parsed.analyze()) {
      std::cout << chapter.analyze.print(plan, parsed.options());
      return static_cast<int>(kExitOk);
    }
    if (chapter.require_host_memory != nullptr) chapter.require_host_memory(plan, parsed.options());
    Session session(parsed.cli());
    return chapter.run(session, plan);
  });
}

}  // namespace stepwise
