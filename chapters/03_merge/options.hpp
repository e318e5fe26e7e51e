/// @file options.hpp
/// The chapter's command line: which problem, how large, which data. Host code only.
///
/// `--problem merge|search|lbs` picks the table (the parser asks for it again once the command
/// line is parsed). Sizes: `--na` and `--nb` are |A| and |B| (merge: the two arrays;
/// search: needles and haystack; lbs: objects and items), and the common `--n` is always
/// |A| + |B|: given alone it is split in the problem's default proportion (merge 1:1, search
/// 1:4, lbs 1:7, at least one object); with one of --na/--nb the other is the rest; with both,
/// --n may be left out (the report's n is then their sum) or must equal their sum. Each size is
/// parsed once, by its option; the sizes of the run are derived from them after the common
/// checks (validate_plan).
#pragma once

#include <cstdint>
#include <string>

#include "algorithm/merge_path.hpp"
#include "host/cli.hpp"
#include "host/count_option.hpp"
#include "host/types.hpp"
#include "inputs.hpp"

namespace stepwise::merge {

/// The chapter's three tables.
enum class ProblemKind { merge, search, lbs };

/// `merge`, `search` or `lbs`.
const char* to_string(ProblemKind problem);

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

/// Everything a run of the chapter needs beyond the common options: the options write into it
/// while parsing (add_options), validate_plan completes the sizes.
struct Plan {
  ProblemKind problem = ProblemKind::merge;
  CountOption na;  ///< --na as typed
  CountOption nb;  ///< --nb as typed
  Distribution distribution = Distribution::uniform;
  bool wide_keys = false;  ///< --type int64
  bool pairs = false;      ///< --pairs
  Bounds bounds = Bounds::lower;
  bool bound_given = false;  ///< --bound was on the command line
  Sizes sizes;               ///< |A| and |B|, from --n, --na and --nb (validate_plan)
  std::string size_options;  ///< size_options_text: what a refusal of these sizes names
};

/// The host memory a run of @p plan holds at its peak: inputs, the reference and its timed
/// copy, the output read back.
double host_bytes_needed(const Plan& plan);

/// The device memory a run of @p plan allocates, without the libraries' temporary storage (CUB's
/// merge asks for a few bytes a tile; the reserve of Session::require_device_bytes covers it).
double device_bytes_needed(const Plan& plan);

/// Adds --problem, --na, --nb, --distribution, --type, --pairs and --bound to @p cli, each
/// written into @p plan. --analyze reads the sizes, --type and --pairs: --distribution and --bound are refused beside
/// it.
void add_options(ChapterCli& cli, Plan& plan);

/// The checks no single option makes, after the common ones (so --check-options makes them too),
/// and the sizes of the run from --n (@p options.n: given or the problem's default), --na and --nb.
/// @throws UsageError for an option that does nothing for the problem (--pairs without merge,
///   --bound without search, --type int64 with lbs), and for sizes resolve_sizes refuses.
void validate_plan(Plan& plan, const CommonOptions& options);

}  // namespace stepwise::merge
