/// @file mode_options.hpp
/// Chapter options whose meaning depends on the table or on the stages selected: reading a
/// chapter's own options before its ChapterCli is built (chapter 07's table depends on
/// --workload, chapter 06's on --flags), and refusing an option that tunes only stages --stage
/// leaves out (chapter 01's --block, chapter 02's look-back options); the size as the user gave
/// it, for messages. Host code only.
#pragma once

#include <algorithm>
#include <cctype>
#include <exception>
#include <set>
#include <string>

#include "host/cli.hpp"
#include "host/count_option.hpp"
#include "host/sizes.hpp"
#include "host/types.hpp"

namespace stepwise {

/// Parses @p argv with CLI11 and the chapter's own options, exactly as the real parse will read
/// them (`--workload=mutation` and `--workload mutation` alike), and prints nothing: the caller
/// then builds the ChapterCli with the table these options ask for and parses again for real.
/// @param argc the command line's argument count, as main got it
/// @param argv the command line, as main got it
/// @param chapter the chapter's name and description, for the probe's ChapterCli
/// @param options the chapter's options, filled from the command line
/// @param add_options registers the chapter's options: `add_options(cli, options)`
/// @return true when the command line parsed and @p options holds its values; false when it
///   did not (the real parse says why), and the caller keeps its defaults.
template <class Options, class AddOptions>
bool probe_chapter_options(int argc, const char* const* argv, const ChapterInfo& chapter, Options& options,
                           AddOptions add_options) {
  ChapterCli probe(chapter, {});
  add_options(probe, options);
  try {
    probe.app().parse(argc, argv);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

/// The numbers of the kernel stages of @p cli's table that --stage selects: all of them when
/// --stage is not given; a selector that names no kernel stage (`lib`, `cpu`, a typo the parse
/// refuses later) adds none. Usable inside a CLI11 callback, before ChapterCli::parse validates.
inline std::set<int> selected_kernel_stages(ChapterCli& cli) {
  const auto lowercase = [](std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
  };
  const std::vector<std::string> selectors = cli.option("--stage")->results();
  std::set<int> numbers;
  for (const StageInfo& stage : cli.stages()) {
    if (stage.kind != RowKind::kernel) continue;
    const bool selected =
        selectors.empty() || std::any_of(selectors.begin(), selectors.end(), [&](const std::string& selector) {
          return selector == std::to_string(stage.number) || lowercase(selector) == lowercase(stage.name);
        });
    if (selected) numbers.insert(stage.number);
  }
  return numbers;
}

/// Refuses chapter option @p option, when it was given, if --stage selects none of the stages
/// @p first to @p last, the only ones it changes (@p stages names them for the message:
/// `stage 7`, `stages 1-10`). A table without those stages (a probe's, empty) refuses nothing.
/// @throws CLI::ValidationError `--block: it changes stages 1-10 only, which --stage leaves out`
inline void require_stage_selected(ChapterCli& cli, const std::string& option, int first, int last,
                                   const std::string& stages) {
  if (cli.option(option)->count() == 0) return;
  const bool in_table = std::any_of(cli.stages().begin(), cli.stages().end(), [&](const StageInfo& stage) {
    return stage.kind == RowKind::kernel && stage.number >= first && stage.number <= last;
  });
  if (!in_table) return;
  const std::set<int> selected = selected_kernel_stages(cli);
  if (selected.lower_bound(first) == selected.end() || *selected.lower_bound(first) > last)
    throw CLI::ValidationError(option + ": it changes " + stages + " only, which --stage leaves out");
}

/// The size of the run as messages about memory name it: `--n 2^30` as the user typed it,
/// `the default --n 2^26` when not.
inline std::string n_as_given(const CommonOptions& options) {
  return (options.n_given ? "" : "the default ") + std::string("--n ") + options.n_text;
}

/// The same, read from @p cli's --n.
inline std::string n_as_given(ChapterCli& cli) {
  const CountOption n = typed_n(cli);
  return (n.given ? "" : "the default ") + std::string("--n ") + n.text;
}

}  // namespace stepwise
