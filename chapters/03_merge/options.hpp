/// @file options.hpp
/// The chapter's command line: which problem, how large, which data. Host code only.
///
/// `--problem merge|search|lbs` picks the table, so main reads it before the parser is built
/// (problem_in_arguments). Sizes: `--na` and `--nb` are |A| and |B| (merge: the two arrays;
/// search: needles and haystack; lbs: objects and items), and the common `--n` is always
/// |A| + |B|: given alone it is split in the problem's default proportion (merge 1:1, search
/// 1:4, lbs 1:7); with one of --na/--nb the other is the rest; with both, --n may be left out
/// (main then adds it, so that the report's n is |A| + |B|) or must equal their sum.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli.hpp"
#include "inputs.hpp"
#include "merge_path.hpp"
#include "types.hpp"

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

/// |A| and |B|.
struct Sizes {
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  friend bool operator==(const Sizes& x, const Sizes& y) { return x.a == y.a && x.b == y.b; }
};

/// The problem's default sizes: merge 2^27 + 2^27; search 2^24 needles in 2^26 keys; lbs 2^24
/// objects sharing 7 x 2^24 items (a 7-point stencil's CSR matrix: 7 nonzeros per row).
Sizes default_sizes(ProblemKind problem);

/// @p n split in the problem's default proportion: |A| = floor(n * a / (a + b)), |B| the rest.
Sizes split_sizes(ProblemKind problem, std::uint64_t n);

/// @p arguments (without the program name) as the parser gets them: unchanged, plus
/// `--n <|A| + |B|>` when both --na and --nb are given as valid counts and --n is not.
std::vector<std::string> with_total_count(const std::vector<std::string>& arguments);

/// The sizes of the run, from --n (always given: the parser sets its default) and the texts of
/// --na and --nb (empty when not given).
/// @throws UsageError naming the option when they disagree or one exceeds --n.
Sizes resolve_sizes(ProblemKind problem, std::uint64_t n, const std::string& a_text, const std::string& b_text);

/// Everything a run of the chapter needs beyond the common options.
struct Plan {
  ProblemKind problem = ProblemKind::merge;
  Sizes sizes;
  Distribution distribution = Distribution::uniform;
  bool wide_keys = false;  ///< --type int64
  bool pairs = false;      ///< --pairs
  Bounds bounds = Bounds::lower;
  bool analyze = false;
};

/// The chapter's own options, registered on a ChapterCli by add_chapter_options and read back
/// by make_plan.
struct ChapterOptions {
  std::string problem = "merge";
  std::string na;
  std::string nb;
  std::string distribution = "uniform";
  std::string type = "int32";
  bool pairs = false;
  std::string bound = "lower";
  bool analyze = false;
};

/// Adds --problem, --na, --nb, --distribution, --type, --pairs, --bound and --analyze to @p cli,
/// writing into @p options, and check_chapter_options as the parser's final callback (@p cli and
/// @p options must outlive the parse).
void add_chapter_options(ChapterCli& cli, ChapterOptions& options);

/// Checks the combinations make_plan refuses, at parse time (add_chapter_options registers it as
/// the parser's final callback, so that --check-options refuses them too).
/// @throws CLI::ValidationError with make_plan's message.
void check_chapter_options(ChapterCli& cli, const ChapterOptions& options);

/// The plan of a parsed command line.
/// @throws UsageError for an option that does nothing for the problem (--pairs without merge,
///   --bound without search, --type int64 with lbs), for sizes that disagree, and for sizes
///   the problem cannot index (search's haystack, lbs's items and objects: 2^31 - 1; items
///   without objects).
Plan make_plan(ChapterCli& cli, const ChapterOptions& options);

}  // namespace stepwise::merge
