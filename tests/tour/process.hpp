/// @file process.hpp
/// Runs a program as the tests of the tour and of the READMEs need: its exit code, its stdout and stderr apart, an
/// environment of its own, a time limit.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace stepwise::test {

/// How a program ended.
struct ProcessResult {
  int exit_code = -1;      ///< the exit status; 128 + the signal when one ended it
  bool timed_out = false;  ///< killed (with its process group) at the time limit
  std::string out;         ///< everything it wrote on stdout
  std::string err;         ///< everything it wrote on stderr
};

/// Runs @p arguments (the program first, looked up on PATH when it has no slash) in @p directory (empty: the
/// current one), with @p environment added to (and overriding) this process's environment, and waits for it: at most
/// @p timeout_seconds, after which its process group is killed.
ProcessResult run_process(const std::vector<std::string>& arguments, const std::string& directory = "",
                          const std::map<std::string, std::string>& environment = {}, double timeout_seconds = 120);

/// The lines of @p text, without their newlines (a last line without one included).
std::vector<std::string> lines_of(const std::string& text);

}  // namespace stepwise::test
