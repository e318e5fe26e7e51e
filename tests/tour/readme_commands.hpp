/// @file readme_commands.hpp
/// The commands written in the repository's Markdown pages, and a place to run them as written on a machine
/// without a GPU: the README test's two halves.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace stepwise::test {

/// A command written in a Markdown page.
struct DocumentedCommand {
  int line = 0;        ///< where it starts in the page (from 1)
  std::string text;    ///< the shell text: a whole ```sh block, or one command
  bool block = false;  ///< a ```sh block, run as a script exactly as written
};

/// The commands of a Markdown page, in page order:
/// - every fenced block whose language is `sh`, `bash` or `shell`, whole, as a script;
/// - every inline code span, and every line of another fenced block (`\` continuations joined, `#` comments
///   dropped), that starts with a program (see starts_with_program()) and is not a synopsis (see is_synopsis()).
std::vector<DocumentedCommand> extract_commands(const std::string& markdown);

/// True when @p text starts with a program a page may tell the reader to run: `build/bin/NAME`, a chapter's bare
/// executable name (`chapter_01_reduction`), `tools/NAME`, `chapters/.../regenerate.sh`, `cmake` or `ctest`, or
/// `ncu`, `nsys` or `compute-sanitizer` profiling a `build/bin/` program. In an inline span (@p in_span) a command
/// needs an argument after a tool's or a script's name (`tools/gpu-round.sh` alone names the script), and a
/// `tools/plot` command an option (`tools/plot analysis` names a figure).
bool starts_with_program(const std::string& text, bool in_span);

/// True when @p text is a synopsis rather than a command: it has optional parts (`[--n N]`), alternatives
/// (`int32|float32`), an ellipsis, a `<placeholder>`, or a word in capitals standing for a value (`N`, `FILE.svg`).
bool is_synopsis(const std::string& text);

/// The Markdown pages of the source tree at @p source: every `.md` file outside hidden folders and build trees
/// (folders named build* at the top, or holding a CMakeCache.txt), sorted.
std::vector<std::filesystem::path> markdown_pages(const std::filesystem::path& source);

/// Where the README test runs a command: a copy of the source tree whose files are links to the real ones, without
/// its build trees (as after a fresh clone), plus `build/bin` with a stand-in for each built program, a folder of
/// stand-ins for the outside tools a page calls (cmake, ctest, ncu, nvidia-smi, package installers) first on PATH,
/// and bash functions for tools/plot and tools/suitesparse-fetch. The stand-ins (tests/tour/readme_sandbox) run each
/// command in a safe form that needs no GPU, and log the exit code of every program it ran.
class Sandbox {
 public:
  /// The paths the sandbox needs.
  struct Paths {
    std::filesystem::path source;       ///< the source tree
    std::filesystem::path build;        ///< the build tree the tests run from
    std::filesystem::path bin;          ///< its programs
    std::filesystem::path stand_ins;    ///< tests/tour/readme_sandbox
    std::filesystem::path root;         ///< a folder the sandbox may fill (removed first)
    std::filesystem::path target_list;  ///< the build's targets, one per line
    std::string cmake, ctest, python, cuda_bin;
  };

  /// How one command ended.
  struct Outcome {
    bool passed = false;  ///< no command exited with a code other than 0 or 77, and it did not time out
    int programs = 0;     ///< how many stand-ins ran (the programs it called)
    std::string report;   ///< what went wrong, the programs it ran and their exit codes, its stderr
  };

  explicit Sandbox(Paths paths);
  /// A fresh copy: what earlier commands wrote is gone.
  void reset();
  /// Runs @p command in the copy's top folder, as written (a block) or with build/bin on PATH (a command from prose),
  /// for at most @p timeout_seconds.
  Outcome run(const DocumentedCommand& command, double timeout_seconds = 300);

 private:
  /// Removes what commands added to the copy, and puts back what they removed.
  void prune();

  Paths paths_;
  std::filesystem::path tree_;                                    ///< the copy of the source tree, where commands run
  bool mirrored_ = false;                                         ///< the copy is made
  std::set<std::filesystem::path> folders_;                       ///< the copy's folders, relative
  std::map<std::filesystem::path, std::filesystem::path> links_;  ///< its links, relative, and their targets
};

}  // namespace stepwise::test
