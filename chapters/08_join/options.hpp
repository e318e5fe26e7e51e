/// @file options.hpp
/// The chapter's command line: the join kind, B's size and the duplication of the keys. Host
/// code only.
#pragma once

#include <cstdint>
#include <string>

#include "host/cli.hpp"
#include "host/count_option.hpp"
#include "host/types.hpp"
#include "inputs.hpp"

namespace stepwise::join {

/// What --help, --list and the report's header say about the chapter.
ChapterInfo chapter_info();

/// The default --n (A's rows) and --nb (B's rows): 2^24 each, 128 MiB of keys, two and a half
/// times the L2 of an H100 before a single output row is written.
inline constexpr std::uint64_t kDefaultRows = std::uint64_t{1} << 24;

/// Everything a run of the chapter needs beyond the common options: the options bind to it as
/// they are parsed, and validate_plan() completes the sizes.
struct Plan {
  JoinKind kind = JoinKind::inner;      ///< --join
  std::uint64_t a_rows = kDefaultRows;  ///< --n
  std::uint64_t b_rows = kDefaultRows;  ///< --nb (default: --n)
  double duplication = 1.0;             ///< --dup
  /// The options that set the run's size as the user typed them (`--n 2^30 --nb 2^30 --dup 4`),
  /// or `the default sizes (2^24 x 2^24 rows)`: what a refusal of this size names.
  std::string size_options;
  /// The size options as typed, for size_options and the refusals: --nb, and `--dup D`,
  /// `--join J` ("" when not given).
  CountOption nb;
  std::string dup_typed, join_typed;
};

/// Adds --join, --nb and --dup to @p cli, each written into @p plan as it is parsed (@p plan must
/// outlive the parse), and excludes them beside --analyze (which reads only --format; the
/// ChapterCli must have its --analyze flag already).
void add_chapter_options(ChapterCli& cli, Plan& plan);

/// Completes @p plan's sizes from the options typed and the common --n of @p options (run after
/// the common checks, so that --check-options refuses what a run would).
/// @throws UsageError naming the options typed for a plan that cannot run: more than 2^31 - 1
///   rows in A, in B, in both together, or expected in the join (int32 row indices; a join just
///   above the limit is refused once the input is drawn and its rows counted).
void validate_plan(Plan& plan, const CommonOptions& options);

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
