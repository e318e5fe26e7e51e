/// @file options.hpp
/// The chapter's command line: the join kind, B's size and the duplication of the keys. Host
/// code only.
#pragma once

#include <cstdint>
#include <string>

#include "cli.hpp"
#include "inputs.hpp"
#include "types.hpp"

namespace stepwise::join {

/// What --help, --list and the report's header say about the chapter.
ChapterInfo chapter_info();

/// The default --n (A's rows) and --nb (B's rows): 2^24 each, 128 MiB of keys, two and a half
/// times the L2 of an H100 before a single output row is written.
inline constexpr std::uint64_t kDefaultRows = std::uint64_t{1} << 24;

/// Everything a run of the chapter needs beyond the common options.
struct Plan {
  JoinKind kind = JoinKind::inner;
  std::uint64_t a_rows = kDefaultRows;  ///< --n
  std::uint64_t b_rows = kDefaultRows;  ///< --nb (default: --n)
  double duplication = 1.0;             ///< --dup
};

/// The chapter's own options, registered by add_chapter_options and read back by make_plan.
struct ChapterOptions {
  std::string join = "inner";
  std::string nb;
  std::string duplication = "1";
};

/// Adds --join, --nb and --dup to @p cli, writing into @p options (which must outlive the parse).
void add_chapter_options(ChapterCli& cli, ChapterOptions& options);

/// The plan of a parsed command line (@p n is --n).
/// @throws UsageError for a plan that cannot run (a join of more than 2^31 - 1 rows is refused
///   later, once the input is drawn).
Plan make_plan(const ChapterOptions& options, std::uint64_t n);

/// @throws std::invalid_argument unless @p text is a decimal number >= 1.
double parse_duplication(const std::string& text);

/// What the report's header says about the input: `inner join, 2^24 x 2^24 rows, dup 1`.
std::string describe_input(const Plan& plan);

}  // namespace stepwise::join
