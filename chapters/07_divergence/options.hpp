/// @file options.hpp
/// The chapter's command line: the workload and its parameters, and --analyze. Host code only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli.hpp"
#include "inputs.hpp"
#include "types.hpp"

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

/// Adds --workload, --paths, --costs, --divergence, --mutation-rate, --mutation-rounds, --steps
/// and --analyze to @p cli, writing into @p options (which must outlive the parse).
void add_chapter_options(ChapterCli& cli, ChapterOptions& options);

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

/// What the report's header and notes say about the workload: `synthetic, 4 paths (rounds
/// 64/128/256/512), 100 % of warps mixed`.
std::string describe_workload(const Plan& plan);

}  // namespace stepwise::divergence
