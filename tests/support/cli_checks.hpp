/// @file cli_checks.hpp
/// CPU test helpers for a chapter's command line. Host code only.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

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

}  // namespace stepwise::testing
