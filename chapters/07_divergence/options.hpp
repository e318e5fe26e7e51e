/// @file options.hpp
/// The chapter's command line: the workload and its parameters, and --analyze. Host code only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/cli.hpp"
#include "inputs.hpp"
#include "host/types.hpp"

namespace stepwise::divergence {

/// What --help, --list and the report's header say about the chapter.
ChapterInfo chapter_info();

/// The default --n: 2^24 elements (64 MiB of synthetic elements, 256 MiB of genomes: above the
/// H100's 50 MB L2), enough warps (2^19) for the divergence statistics to be what was asked.
inline constexpr std::uint64_t kDefaultN = std::uint64_t{1} << 24;
/// The most elements: indices of the remap are 32-bit.
inline constexpr std::uint64_t kMaxN = (std::uint64_t{1} << 32) - 1;
/// The default generations of the mutation workload.
inline constexpr unsigned kDefaultGenerations = 8;

/// The chapter's own options, registered by add_chapter_options and read back by make_plan.
struct ChapterOptions {
  std::string workload = "synthetic";
  int paths = 4;
  std::string costs;  ///< empty: default_rounds
  std::string divergence = "100%";
  std::string mutation_rate = "10%";
  int mutation_rounds = 512;
  int steps = 0;  ///< 0: the workload's default
  bool analyze = false;
};

/// Each workload's table as --list shows it: the mutation workload has stages 6, 7 and 9 more.
struct WorkloadTables {
  std::vector<StageInfo> synthetic, mutation;
};

/// Adds --workload, --paths, --costs, --divergence, --mutation-rate, --mutation-rounds, --steps
/// and --analyze to @p cli, writing into @p options (which must outlive the parse). With
/// @p tables, a --stage that names a stage of the mutation table only is refused, when the
/// workload is synthetic, as existing only for --workload mutation (@p cli, @p options and
/// @p tables must outlive the parse).
void add_chapter_options(ChapterCli& cli, ChapterOptions& options, const WorkloadTables* tables = nullptr);

/// The workload @p argv asks for, read by CLI11 with the chapter's own options, so that
/// `--workload=mutation` and `--workload mutation` are one: main builds the ChapterCli with
/// that workload's table. Synthetic when the command line does not parse (the ChapterCli's parse
/// then says why).
WorkloadKind workload_in_arguments(int argc, const char* const* argv);

/// `synthetic` or `mutation`.
WorkloadKind parse_workload(const std::string& text);
/// `64,128,256,512`: one rounds count per path, each 0 to 65536.
/// @throws std::invalid_argument naming @p text.
std::vector<unsigned> parse_costs(const std::string& text);

/// The plan of a parsed command line for @p n elements.
/// @throws UsageError for options that contradict each other (a synthetic option with the
///   mutation workload, --costs of the wrong length, --steps with the synthetic workload) or an
///   n of 2^32 or more.
Plan make_plan(ChapterCli& cli, const ChapterOptions& options, std::uint64_t n);

/// The host memory a run of @p plan over @p n elements holds at its peak: the input, the
/// reference and its reruns, the output the check downloads, and (mutation) the pinned remaps of
/// stage 6.
double host_bytes(const Plan& plan, std::uint64_t n);

/// The device memory of the run's buffers (in, out, spare and the remaps' workspace); CUB's
/// storage comes on top, sized by CUB on the GPU.
double device_bytes(const Plan& plan, std::uint64_t n);

/// The most elements `--analyze` looks at: 2^26, two seconds and about a GiB. Above, it
/// analyzes the first 2^26 (every warp draws its paths alike) and says so.
inline constexpr std::uint64_t kMaxAnalyzedElements = std::uint64_t{1} << 26;

/// The host memory `--analyze` holds for @p plan at @p n elements (at most kMaxAnalyzedElements).
double analysis_host_bytes(const Plan& plan, std::uint64_t n);

/// What the report's header and notes say about the workload: `synthetic, 4 paths (rounds
/// 64/128/256/512), 100 % of warps mixed`.
std::string describe_workload(const Plan& plan);

}  // namespace stepwise::divergence
