/// @file options.hpp
/// The chapter's command line: the element type, which elements are kept and how the test is
/// given, and --analyze. Host code only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "host/cli.hpp"
#include "inputs.hpp"
#include "host/types.hpp"

namespace stepwise::compaction {

/// The key types (--type).
enum class KeyType { int32, float32 };

/// What --help, --list and the report's header say about the chapter.
ChapterInfo chapter_info();

/// The default --n: 2^26 elements (256 MiB of int32 keys, five times the L2 of an H100), large
/// enough to measure the memory and small enough for the CPU to check the unordered rows (a
/// sort of their output) twice per row in seconds.
inline constexpr std::uint64_t kDefaultN = std::uint64_t{1} << 26;

/// Stage 6's first poll when --first-poll-ns is not given: CUB's L2 write latency for 4-byte
/// values on sm_90, which chapter 02 measured as the best first poll of its single-pass scan.
inline constexpr unsigned kSinglePassFirstPollNs = 1245;

/// Stage 7's first poll when --first-poll-ns is not given. On an H100 (2^26 int32, README),
/// 2600 ns (3500: the same) beat 0-2000 and 5000 ns for stage 7 at 50 and 99 % and with flags,
/// and was within 1 % at 1 %; for stage 6 it was 21-27 % slower than 1245 ns, hence two defaults.
inline constexpr unsigned kTunedFirstPollNs = 2600;

/// Everything a run of the chapter needs beyond the common options.
struct Plan {
  KeyType type = KeyType::int32;
  double selectivity = 0.5;
  Pattern pattern;
  bool by_flags = false;                  ///< --flags: the Flagged form
  bool payload = false;                   ///< --payload: an int32 value travels with each key
  std::optional<unsigned> first_poll_ns;  ///< --first-poll-ns (stages 6 and 7); unset: each stage's own
  bool speculative = true;                ///< false with --ticket-first (stage 7)
  bool analyze = false;
};

/// The chapter's own options, registered by add_chapter_options and read back by make_plan.
struct ChapterOptions {
  std::string type = "int32";
  std::string selectivity = "50%";
  std::string pattern = "random";
  bool flags = false;
  bool payload = false;
  int first_poll_ns = -1;  ///< -1: not given
  bool ticket_first = false;
  bool analyze = false;
};

/// Adds --type, --selectivity, --pattern, --flags, --payload, --first-poll-ns, --ticket-first and
/// --analyze to @p cli, writing into @p options (which must outlive the parse).
void add_chapter_options(ChapterCli& cli, ChapterOptions& options);

/// The plan of a parsed command line.
Plan make_plan(const ChapterOptions& options);

/// Whether @p argv asks for --flags, read by CLI11 with the chapter's own options: --list then
/// shows the Flagged library row.
bool flags_in_arguments(int argc, const char* const* argv);

/// The host memory a run of @p plan over @p n elements holds at its peak: the input, the
/// reference and its rerun, the output the check downloads, and the sorted copies with which
/// the check compares an unordered row's output.
double host_bytes(const Plan& plan, std::uint64_t n);

/// `int32` or `float32`.
const char* to_string(KeyType type);

/// What the report's header and notes say about the input: `50 % kept (random), key < 0`.
std::string describe_input(const Plan& plan);

}  // namespace stepwise::compaction
