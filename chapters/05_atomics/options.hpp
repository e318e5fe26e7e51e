/// @file options.hpp
/// The chapter's command line: which problem, which keys, which operation, which mode. Host
/// code only.
///
/// `--problem histogram|ticket` picks the table, so main reads it before the ChapterCli is built
/// (problem_in_arguments). The histogram takes `--bins`, `--distribution` and `--op`, and two
/// modes: `--surface` (every stage over 1, 2, 4, ..., 32 distinct keys per warp and the
/// operations, a speedup matrix) and `--analyze` (no GPU: what the keys look like to a warp and
/// the atomics each stage issues). The ticket problem takes none of them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/cli.hpp"
#include "inputs.hpp"
#include "host/types.hpp"

namespace stepwise::atomics {

/// The chapter's two tables.
enum class ProblemKind { histogram, ticket };

/// The histogram's operations (--op).
enum class OpKind { int_add, float_add, double_cas };

/// `histogram` or `ticket`.
const char* to_string(ProblemKind problem);
/// `int-add`, `float-add` or `double-cas`.
const char* to_string(OpKind op);
/// The operations in --op's order.
const std::vector<OpKind>& all_ops();

/// The problem @p arguments ask for, read by CLI11 with the chapter's own options
/// (`--problem X` or `--problem=X`): histogram when there is none or the command line does not
/// parse (the parser then says why).
ProblemKind problem_in_arguments(const std::vector<std::string>& arguments);

/// What --help, --list and the report's header say about the chapter when it runs @p problem.
ChapterInfo chapter_info(ProblemKind problem);

/// The default --n: 2^24 keys (64 MiB of keys, above the L2 of an H100 or H200).
inline constexpr std::uint64_t kDefaultN = std::uint64_t{1} << 24;
/// The most bins --bins takes (2^24).
inline constexpr int kMaxBins = 1 << 24;
/// The keys per warp --surface runs: 1, 2, 4, 8, 16, 32.
const std::vector<int>& surface_keys_per_warp();

/// Everything a run of the chapter needs beyond the common options.
struct Plan {
  ProblemKind problem = ProblemKind::histogram;
  int bins = 256;
  Distribution distribution;
  OpKind op = OpKind::int_add;
  std::vector<OpKind> surface_ops;  ///< --surface: the operations it runs (all, or --op's)
  bool surface = false;
  bool analyze = false;
  /// The sizes as the user typed them, for messages about memory: `--n 2^30 --bins 2^24`, or
  /// `the default --n 2^24` when neither was given.
  std::string sizes;
};

/// The chapter's own options, registered by add_chapter_options and read back by make_plan.
struct ChapterOptions {
  std::string problem = "histogram";
  int bins = 256;
  std::string distribution = "uniform";
  std::string op = "int-add";
  bool surface = false;
  bool analyze = false;
};

/// Adds --problem, --bins, --distribution, --op, --surface and --analyze to @p cli, writing into
/// @p options, with check_chapter_options as the parser's final callback (@p cli and @p options
/// must outlive the parse).
void add_chapter_options(ChapterCli& cli, ChapterOptions& options);

/// Checks the combinations make_plan refuses, at parse time.
/// @throws CLI::ValidationError with make_plan's message.
void check_chapter_options(ChapterCli& cli, const ChapterOptions& options);

/// The plan of a parsed command line.
/// @throws UsageError for an option that does nothing for the problem or mode (--bins,
///   --distribution, --op, --surface, --analyze with the ticket; --distribution with
///   --surface, which draws its own keys), and for --surface with fewer than 32 bins (a warp
///   cannot then hold 32 distinct keys) or --format csv.
Plan make_plan(ChapterCli& cli, const ChapterOptions& options);

/// The host memory a run of @p plan over @p n keys holds at its peak: the inputs, the CPU
/// reference and its rerun, and what the checks download (--surface: one problem at a time,
/// of its widest operation).
double host_bytes(const Plan& plan, std::uint64_t n);

/// The device memory of the run's buffers: keys, values and bins (the ticket: values in and
/// out). CUB's storage comes on top; only CUB can size it, on the GPU.
double device_bytes(const Plan& plan, std::uint64_t n);

/// The most keys `--analyze` profiles: 2^26, two seconds of work. Above, it profiles the first
/// 2^26 keys (each key is drawn alike, so their shares stand for all n) and says so.
inline constexpr std::uint64_t kMaxAnalyzedKeys = std::uint64_t{1} << 26;

/// The host memory `--analyze` holds for @p plan at @p n keys (at most kMaxAnalyzedKeys of them).
double analysis_host_bytes(const Plan& plan, std::uint64_t n);

}  // namespace stepwise::atomics
