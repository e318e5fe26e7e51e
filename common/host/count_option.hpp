/// @file count_option.hpp
/// Size options besides the common `--n` (`--na`, `--nb`): each parsed once, when the parser
/// meets it, and kept with the text the user typed, so that a refusal names it as typed
/// (`--nb 1Gi`, not a number the user never wrote). Host code only: no CUDA header.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "host/cli.hpp"

namespace stepwise {

/// A count option as the command line gave it.
struct CountOption {
  bool given = false;       ///< false: the option was not on the command line
  std::string text;         ///< what the user typed (`2^20+3`)
  std::uint64_t value = 0;  ///< its value (parse_count)
};

/// @p text as a given CountOption.
/// @throws std::invalid_argument (parse_count's message) when @p text is not a count.
CountOption count_option(const std::string& text);

/// Adds option @p name to @p app, parsed into @p target when the parser meets it: a count as
/// `--n` takes them (`1000000`, `1M`, `16Mi`, `2^26`); an empty or malformed value is refused
/// with one line naming @p name (exit code 2).
CLI::Option* add_count_option(CLI::App& app, const std::string& name, CountOption& target, const std::string& help);

/// `NAME TEXT` as the user typed it (`--nb 2^31`), or "" when @p option was not given.
std::string typed(const std::string& name, const CountOption& option);

}  // namespace stepwise
