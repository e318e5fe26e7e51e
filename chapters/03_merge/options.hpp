/// @file options.hpp
/// The chapter's command line: which problem, how large, which data. Host code only.
///
/// `--problem merge|search|lbs` picks the table, so main reads it before the parser is built
/// (problem_in_arguments). Sizes: `--na` and `--nb` are |A| and |B| (merge: the two arrays;
/// search: needles and haystack; lbs: objects and items), and the common `--n` is always
/// |A| + |B|: given alone it is split in the problem's default proportion (merge 1:1, search
/// 1:4, lbs 1:7, at least one object); with one of --na/--nb the other is the rest; with both,
/// --n may be left out (the report's n is then their sum) or must equal their sum. Each size is
/// parsed once, by its option; the sizes of the run are derived from them after parsing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/cli.hpp"
#include "host/count_option.hpp"
#include "inputs.hpp"
#include "algorithm/merge_path.hpp"
#include "host/types.hpp"

namespace stepwise::merge {

/// The chapter's three tables.
enum class ProblemKind { merge, search, lbs };

/// `merge`, `search` or `lbs`.
const char* to_string(ProblemKind problem);

/// The problem the last `--problem` of @p arguments names (`--problem X` or `--problem=X`),
/// merge when there is none. A value that names no problem also gives merge: the parser then
/// refuses it with the usual one-line error.
ProblemKind problem_in_arguments(const std::vector<std::string>& arguments);

/// What --help, --list and the report's header say about the chapter when it runs @p problem.
/// default_n is |A| + |B| of the problem's default sizes.
ChapterInfo chapter_info(ProblemKind problem);

/// The most elements |A| + |B| may have: the common `--n`'s limit, 2^40.
inline constexpr std::uint64_t kMaxTotal = std::uint64_t{1} << 40;

/// |A| and |B|.
struct Sizes {
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  friend bool operator==(const Sizes& x, const Sizes& y) { return x.a == y.a && x.b == y.b; }
};

/// The problem's default sizes: merge 2^27 + 2^27; search 2^24 needles in 2^26 keys; lbs 2^24
/// objects sharing 7 x 2^24 items (a 7-point stencil's CSR matrix: 7 nonzeros per row).
Sizes default_sizes(ProblemKind problem);

/// @p n split in the problem's default proportion: |A| = floor(n * a / (a + b)), |B| the rest;
/// the load-balancing search keeps at least one object (n = 1 is one object and no item).
Sizes split_sizes(ProblemKind problem, std::uint64_t n);

/// The sizes of the run from --n (its value is the chapter's default when not given), --na and
/// --nb, checked against what the problem can index (search's haystack, lbs's objects and items:
/// 2^31 - 1; lbs: items need at least one object) and against kMaxTotal.
/// @throws UsageError naming only the options the user gave (and the default they left).
Sizes resolve_sizes(ProblemKind problem, const CountOption& n, const CountOption& a, const CountOption& b);

/// The size options the user gave, as typed (`--na 1 --nb 2^24`), or `the default sizes (|A| +
/// |B| = 2^28)`: what memory refusals name.
std::string size_options_text(const CountOption& n, const CountOption& a, const CountOption& b, std::uint64_t total);

/// Everything a run of the chapter needs beyond the common options.
struct Plan {
  ProblemKind problem = ProblemKind::merge;
  Sizes sizes;
  Distribution distribution = Distribution::uniform;
  bool wide_keys = false;  ///< --type int64
  bool pairs = false;      ///< --pairs
  Bounds bounds = Bounds::lower;
  bool analyze = false;
  std::string size_options;  ///< size_options_text: what a refusal of these sizes names
};

/// The host memory a run of @p plan holds at its peak: inputs, the reference and its timed
/// copy, the output read back.
double host_bytes_needed(const Plan& plan);

/// The device memory a run of @p plan allocates, without the libraries' temporary storage (CUB's
/// merge asks for a few bytes a tile; the reserve of Session::require_device_bytes covers it).
double device_bytes_needed(const Plan& plan);

/// The chapter's own options, registered on a ChapterCli by add_chapter_options and read back
/// by make_plan.
struct ChapterOptions {
  std::string problem = "merge";
  CountOption na;
  CountOption nb;
  std::string distribution = "uniform";
  std::string type = "int32";
  bool pairs = false;
  std::string bound = "lower";
  bool analyze = false;
};

/// Adds --problem, --na, --nb, --distribution, --type, --pairs, --bound and --analyze to @p cli,
/// writing into @p options, and check_chapter_options as the parser's final callback (@p cli and
/// @p options must outlive the parse). --analyze reads the sizes, --type and --pairs: every other
/// option beside it is refused.
void add_chapter_options(ChapterCli& cli, ChapterOptions& options);

/// Checks the combinations make_plan refuses, at parse time (add_chapter_options registers it as
/// the parser's final callback, so that --check-options refuses them too).
/// @throws CLI::ValidationError with make_plan's message.
void check_chapter_options(ChapterCli& cli, const ChapterOptions& options);

/// The plan of a parsed command line.
/// @throws UsageError for an option that does nothing for the problem (--pairs without merge,
///   --bound without search, --type int64 with lbs), and for sizes resolve_sizes refuses.
Plan make_plan(ChapterCli& cli, const ChapterOptions& options);

}  // namespace stepwise::merge
