/// @file options.hpp
/// The chapter's command line: the workload and its parameters, and --analyze. Host code only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/cli.hpp"
#include "host/types.hpp"
#include "inputs.hpp"

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

/// The table of a plan, as --list shows it (the chapter's; the tests may pass their own).
using TableOf = std::vector<StageInfo> (*)(const Plan& plan);

/// Adds --workload, --paths, --costs, --divergence, --mutation-rate, --mutation-rounds and
/// --steps to @p cli, each written into @p plan as it is parsed (@p cli and @p plan must outlive
/// the parse); --steps is refused beside --analyze (the ChapterCli must have its --analyze flag
/// already). A --stage that names a stage of @p table_of's mutation table only is refused, when
/// the workload is synthetic, as existing only for --workload mutation.
void add_chapter_options(ChapterCli& cli, Plan& plan, TableOf table_of);

/// `synthetic` or `mutation`.
WorkloadKind parse_workload(const std::string& text);
/// `64,128,256,512`: one rounds count per path, each 0 to 65536.
/// @throws std::invalid_argument naming @p text.
std::vector<unsigned> parse_costs(const std::string& text);

/// Completes @p plan for the common options @p options (the rounds, the steps, the mutation
/// workload's paths), after the common checks.
/// @throws UsageError for options that contradict each other (a synthetic option with the
///   mutation workload, --costs of the wrong length, --steps with the synthetic workload) or an
///   n of 2^32 or more.
void validate_plan(Plan& plan, const CommonOptions& options);

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
