/// @file sweep_problems.hpp
/// The problems of a chapter's size sweep: what `--list-problems` prints and the tour's
/// `--problems` runs at every size. Host code only: no CUDA header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stepwise {

/// One problem of the size sweep (`tour --sizes ... --problems`): a variant of the chapter whose
/// best stage is compared with its library at every size. The tour runs it as its @ref arguments
/// plus `--n SIZE`; `--list-problems` prints it.
struct SweepProblem {
  /// A short name for figures, tables and report files (`if 1%`, `keys int64`): unique in the
  /// chapter, and unique once written as a file name (sweep_problem_slug()).
  std::string label;
  /// The chapter options that pick the problem, one word each (`{"--flags", "--selectivity",
  /// "1%"}`): no --n (the sweep gives it), no blanks or quotes.
  std::vector<std::string> arguments;
  /// The largest --n the chapter runs this problem at (0: no limit of its own). A larger size is
  /// refused by the chapter's own checks (`--check-options`, exit 2): the tour prints that
  /// refusal and skips the size, and the tour's tests check that the two agree.
  std::uint64_t max_n = 0;
};

/// @p label as the tour writes it in a report's file name: lowercase letters and digits, `%`
/// as `pct`, every other run of characters as one `-`, none at either end (`if 1%` ->
/// `if-1pct`).
std::string sweep_problem_slug(const std::string& label);

/// What `--list-problems` prints: one line per problem, `LABEL<TAB>ARGUMENTS`, the arguments
/// separated by one space, then `<TAB>max_n=COUNT` (format_count()) when the problem has a limit.
std::string sweep_problem_listing(const std::vector<SweepProblem>& problems);

/// Reads sweep_problem_listing()'s text back.
/// @throws std::invalid_argument naming the line that is not of that form (an empty label or
/// argument, a third field other than `max_n=COUNT`).
std::vector<SweepProblem> parse_sweep_problem_listing(const std::string& text);

}  // namespace stepwise
