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
/// | `--help`, `--list`, `--list-options`, `--check-options` | 0 |
/// | a bad option, a bad combination, too little host memory | 2, one line naming what was typed |
/// | `--analyze` (no GPU needed) | 0 |
/// | no GPU | 77 |
/// | the run: every row checked, timed, reported | 0, or 1 when a check failed |
#pragma once

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "host/cli.hpp"
#include "host/harness.hpp"
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
};

/// Parses @p argv into @p chapter's plan and does what it asks (see the file's table).
template <class Plan>
int run_chapter(int argc, char** argv, const Chapter<Plan>& chapter) {
  return run_main(argc > 0 ? argv[0] : "stepwise", [&] {
    Plan plan;
    ChapterCli cli([&] { return chapter.info(plan); }, [&] { return chapter.stages(plan); });
    bool analyze = false;
    if (chapter.analyze.print != nullptr) cli.add_analyze_flag(analyze, chapter.analyze.help, chapter.analyze.reads);
    chapter.add_options(cli, plan);
    cli.set_validate([&](const CommonOptions& options) {
      if (analyze) {
        const auto& formats = chapter.analyze.formats;
        if (std::find(formats.begin(), formats.end(), options.format) == formats.end())
          throw UsageError(std::string("--format ") + to_string(options.format) + ": --analyze prints " +
                           join_formats(formats));
      }
      if (chapter.validate != nullptr) chapter.validate(plan, options);
    });
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    if (analyze) {
      std::cout << chapter.analyze.print(plan, cli.options());
      return static_cast<int>(kExitOk);
    }
    if (chapter.require_host_memory != nullptr) chapter.require_host_memory(plan, cli.options());
    Session session(cli);
    return chapter.run(session, plan);
  });
}

}  // namespace stepwise
