/// @file plan.hpp
/// The chapter's typed options (its Plan): which problem, which keys, which operation, which
/// mode, and the memory a run of them holds. Host code only: no CUDA header, no option parser.
///
/// `--problem histogram|ticket` picks the table. The histogram takes `--bins`, `--distribution`
/// and `--op`, and two modes: `--surface` (every stage over 1, 2, 4, ..., 32 distinct keys per
/// warp and the operations, a speedup matrix) and `--analyze` (no GPU: what the keys look like to
/// a warp and the atomics each stage issues). The ticket problem takes none of them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/types.hpp"
#include "inputs.hpp"

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

/// What --help, --list and the report's header say about the chapter when it runs @p problem.
ChapterInfo chapter_info(ProblemKind problem);

/// The default --n: 2^24 keys (64 MiB of keys, above the L2 of an H100 or H200).
inline constexpr std::uint64_t kDefaultN = std::uint64_t{1} << 24;
/// The most bins --bins takes (2^24).
inline constexpr int kMaxBins = 1 << 24;
/// The keys per warp --surface runs: 1, 2, 4, 8, 16, 32.
const std::vector<int>& surface_keys_per_warp();

/// Everything a run of the chapter needs beyond the common options; the chapter's options write
/// straight into it, and the chapter's validate completes it (surface_ops, sizes).
struct Plan {
  ProblemKind problem = ProblemKind::histogram;  ///< --problem
  int bins = 256;                                ///< --bins
  Distribution distribution;                     ///< --distribution
  OpKind op = OpKind::int_add;                   ///< --op
  std::vector<OpKind> surface_ops;               ///< --surface: the operations it runs (all, or --op's)
  bool surface = false;                          ///< --surface
  /// The chapter options given on the command line (`--bins`, ...), for the checks of the
  /// combinations that do nothing.
  std::vector<std::string> given;
  /// The sizes as the user typed them, for messages about memory: `--n 2^30 --bins 2^24`, or
  /// `the default --n 2^24` when neither was given.
  std::string sizes;
};

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
