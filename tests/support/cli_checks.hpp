/// @file cli_checks.hpp
/// CPU test helpers for a chapter's command line. Host code only.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "host/chapter.hpp"
#include "host/cli.hpp"

namespace stepwise::testing {

/// The one line @p cli prints on stderr when it refuses @p arguments (what --check-options
/// prints too), without its `stepwise: error: ` prefix; empty when they are accepted. Requires
/// exit code 2 and exactly one line.
inline std::string refusal_of(ChapterCli& cli, const std::vector<std::string>& arguments) {
  std::ostringstream captured;
  std::streambuf* const stderr_buffer = std::cerr.rdbuf(captured.rdbuf());
  const auto code = cli.parse(arguments);
  std::cerr.rdbuf(stderr_buffer);
  if (!code) return "";
  REQUIRE(*code == 2);
  const std::string line = captured.str();
  const std::string prefix = "stepwise: error: ";
  REQUIRE(line.rfind(prefix, 0) == 0);
  REQUIRE(std::count(line.begin(), line.end(), '\n') == 1);
  return line.substr(prefix.size());
}

/// What a chapter's parse did with a command line: the exit code it asked for and what it printed.
struct ParseOutcome {
  /// nullopt: the program would go on (a run, or --analyze); else its exit code: 0 after --help,
  /// --list or --check-options, 2 after a refusal.
  std::optional<int> code;
  std::string out;  ///< what it printed on stdout (--help, --list)
  std::string err;  ///< what it printed on stderr (a refusal's one line)
};

/// Parses @p arguments through @p parsed (the parse run_chapter makes), capturing what it prints.
template <class Plan>
ParseOutcome parse_captured(ParsedChapter<Plan>& parsed, const std::vector<std::string>& arguments) {
  std::ostringstream out;
  std::ostringstream err;
  std::streambuf* const stdout_buffer = std::cout.rdbuf(out.rdbuf());
  std::streambuf* const stderr_buffer = std::cerr.rdbuf(err.rdbuf());
  ParseOutcome outcome;
  outcome.code = parsed.parse(arguments);
  std::cout.rdbuf(stdout_buffer);
  std::cerr.rdbuf(stderr_buffer);
  outcome.out = out.str();
  outcome.err = err.str();
  return outcome;
}

/// The exit code @p chapter's main gives @p arguments before it opens the GPU: 0 when they are
/// accepted (a run or --analyze would go on, or --help, --list printed), 2 when refused. Quiet.
template <class Plan>
int exit_code_of(const Chapter<Plan>& chapter, const std::vector<std::string>& arguments) {
  ParsedChapter<Plan> parsed(chapter);
  return parse_captured(parsed, arguments).code.value_or(0);
}

/// The plan @p chapter parses from @p arguments, completed by its validate. Requires that they
/// are accepted and that the program would go on (no --help, --list or --check-options).
template <class Plan>
Plan plan_of(const Chapter<Plan>& chapter, const std::vector<std::string>& arguments) {
  ParsedChapter<Plan> parsed(chapter);
  const ParseOutcome outcome = parse_captured(parsed, arguments);
  INFO(outcome.err);
  REQUIRE_FALSE(outcome.code.has_value());
  return parsed.plan();
}

/// The one line @p chapter's parser prints when it refuses @p arguments (refusal_of above).
template <class Plan>
std::string refusal_of(const Chapter<Plan>& chapter, const std::vector<std::string>& arguments) {
  ParsedChapter<Plan> parsed(chapter);
  return refusal_of(parsed.cli(), arguments);
}

/// What @p chapter's main does with @p arguments before it opens the GPU: the parse
/// (parse_captured) and, when --analyze was given and accepted, the analysis on stdout with exit
/// code 0, as run_chapter prints it. The code stays nullopt when a run would go on.
template <class Plan>
ParseOutcome outcome_of(const Chapter<Plan>& chapter, const std::vector<std::string>& arguments) {
  ParsedChapter<Plan> parsed(chapter);
  ParseOutcome outcome = parse_captured(parsed, arguments);
  if (!outcome.code && parsed.analyze()) {
    outcome.out = parsed.chapter().analyze.print(parsed.plan(), parsed.options());
    outcome.code = 0;
  }
  return outcome;
}

}  // namespace stepwise::testing
