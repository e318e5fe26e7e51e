/// @file options.hpp
/// The chapter's own options: the element type and scan kind, the single-pass stage's tile
/// (--nt, --vt) and look-back (--backoff-ns, --first-poll-ns, --ticket-first), the transposes'
/// access width, and --analyze, with what --analyze prints from them (bank_conflicts.hpp
/// computes it). Host code only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/cli.hpp"
#include "scan.hpp"

namespace stepwise::scan {

/// The chapter's own options, registered on a ChapterCli by add_chapter_options.
struct ChapterOptions {
  std::string type = "int32";                            ///< --type: int32 or float32
  std::string scan = "exclusive";                        ///< --scan: exclusive or inclusive
  int nt = 128;                                          ///< --nt: threads per block
  std::vector<int> vts = {8, 7};                         ///< --vt: values per thread, one or more
  unsigned backoff_ns = ScanOptions{}.backoff_ns;        ///< --backoff-ns
  unsigned first_poll_ns = ScanOptions{}.first_poll_ns;  ///< --first-poll-ns
  bool ticket_first = false;                             ///< --ticket-first
  bool scalar_transpose = false;                         ///< --scalar-transpose
  bool vector_transpose = false;                         ///< --vector-transpose
  bool analyze = false;                                  ///< --analyze
};

/// Adds --type, --scan, --nt, --vt, --backoff-ns, --first-poll-ns, --ticket-first,
/// --scalar-transpose, --vector-transpose and --analyze to @p cli, writing into @p options
/// (@p cli and @p options must outlive the parse). --analyze excludes the options that do
/// nothing without a GPU run; the options of the single-pass and reduce-then-scan stages are
/// refused when --stage leaves those stages out.
void add_chapter_options(ChapterCli& cli, ChapterOptions& options);

/// What --analyze prints for --nt and --vt: the bank conflicts of the transposes and of
/// Blelloch's tree and a look-back example, as a table or with --format json for tools/plot.
/// @throws UsageError for a --format other than table or json, and for a tile
///   require_analyzable refuses.
std::string analysis(const ChapterCli& cli, const ChapterOptions& options);

/// The table's single-pass stage, the one --nt, --vt and the look-back's options tune.
inline constexpr int kSinglePassStage = 7;
/// The reduce-then-scan stages, whose transposes --scalar-transpose changes.
inline constexpr int kFirstReduceThenScanStage = 4;
inline constexpr int kLastReduceThenScanStage = 6;

/// The host memory a run over @p n elements of --type holds at its peak.
double host_bytes(const ChapterOptions& options, std::uint64_t n);

/// The single-pass stage's tile from --nt and --vt, nullopt when neither is given.
/// @throws UsageError (`--nt, --vt: ...`) unless both are given, --vt once, for a tile the
///   single pass compiles (and a VT that is a multiple of 4 with --vector-transpose): checked
///   before the GPU opens.
std::optional<LaunchShape> single_pass_tile(ChapterCli& cli, const ChapterOptions& options);

/// What the stages' launches take from the options: the scan kind, the look-back's timing and
/// ticket, the transposes' access width.
ScanOptions scan_options(const ChapterOptions& options);

}  // namespace stepwise::scan
