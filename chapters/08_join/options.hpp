/// @file options.hpp
/// The chapter's command line: the join kind, B's size and the duplication of the keys. Host
/// code only.
#pragma once

#include <cstdint>
#include <string>

#include "host/cli.hpp"
#include "host/count_option.hpp"
#include "inputs.hpp"
#include "host/types.hpp"

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
  /// The options that set the run's size as the user typed them (`--n 2^30 --nb 2^30 --dup 4`),
  /// or `the default sizes (2^24 x 2^24 rows)`: what a refusal of this size names.
  std::string size_options;
};

/// The chapter's own options, registered by add_chapter_options and read back by make_plan.
struct ChapterOptions {
  std::string join = "inner";
  CountOption nb;
  std::string duplication = "1";
  bool analyze = false;  ///< --analyze: the talk's examples, no GPU (analysis.hpp)
};

/// Adds --join, --nb, --dup and --analyze to @p cli, writing into @p options, and
/// check_chapter_options as the parser's final callback (@p cli and @p options must outlive the
/// parse). --analyze reads only --format: every other option beside it is refused.
void add_chapter_options(ChapterCli& cli, ChapterOptions& options);

/// Refuses, at parse time, what make_plan refuses (so that --check-options refuses it too).
/// @throws CLI::ValidationError with make_plan's message.
void check_chapter_options(ChapterCli& cli, const ChapterOptions& options);

/// The plan of a parsed command line.
/// @throws UsageError naming the options typed for a plan that cannot run: more than 2^31 - 1
///   rows in A, in B, in both together, or expected in the join (int32 row indices; a join just
///   above the limit is refused once the input is drawn and its rows counted).
Plan make_plan(ChapterCli& cli, const ChapterOptions& options);

/// The rows the join of @p plan's input has on average over seeds: |A| |B| / K matches for K
/// distinct keys, plus the rows without a partner that the join keeps (A's: |A| (1 - 1/K)^|B|,
/// B's: |B| (1 - 1/K)^|A|).
double expected_rows(const Plan& plan);

/// The host memory a run of @p plan holds at its peak for a join of @p rows rows: both key
/// columns, the draws' histogram, the reference's pairs, its timed copy, a column read back and
/// its compared prefix.
double host_bytes_needed(const Plan& plan, double rows);

/// The device memory a run of @p plan allocates for a join of @p rows rows: the keys, the output,
/// and the workspace (bounds, offsets and partitions: about 20 bytes a row of A, 9 of B; the
/// library's per-row objects: 4 bytes a row).
double device_bytes_needed(const Plan& plan, double rows);

/// @throws std::invalid_argument unless @p text is a decimal number from 1 to 10^9: digits with
///   at most one decimal point (`2.5`); no sign, exponent, hexadecimal or spaces.
double parse_duplication(const std::string& text);

/// What the report's header says about the input: `inner join, 2^24 x 2^24 rows, dup 1`.
std::string describe_input(const Plan& plan);

}  // namespace stepwise::join
