/// @file options.hpp
/// The chapter's own options: --type, --block, --analyze and --tree-block, and what --analyze
/// prints from them (reduce_analysis.hpp replays the kernels). Host code only.
#pragma once

#include <cstdint>
#include <string>

#include "host/cli.hpp"

namespace stepwise::reduction {

/// The chapter's own options, registered on a ChapterCli by add_chapter_options.
struct ChapterOptions {
  std::string type = "int32";  ///< --type: int32 (summed mod 2^32) or float32
  int block = 256;             ///< --block: threads per block of stages 1-10, or of --analyze's step tables
  int tree_block = 16;         ///< --tree-block: the words of the trees --analyze --format json draws
  bool analyze = false;        ///< --analyze
};

/// Adds --type, --block, --analyze and --tree-block to @p cli, writing into @p options (@p cli
/// and @p options must outlive the parse). --analyze excludes the options that do nothing
/// without a GPU run, and --block those runs whose --stage selects none of stages 1-10.
void add_chapter_options(ChapterCli& cli, ChapterOptions& options);

/// What --analyze prints: the step tables of kernels 1-3 for --block threads, or with
/// --format json the document tools/plot draws from (with the trees over --tree-block words).
/// @throws UsageError for a --format other than table or json, and for --tree-block without
///   --format json.
std::string analysis(ChapterCli& cli, const ChapterOptions& options);

/// The host memory a run over @p n elements of --type holds: the input (int32: and its copy as
/// uint32, while it is made).
double host_bytes(const ChapterOptions& options, std::uint64_t n);

/// The block size of stages 1 to 10: --block when given, else 0 (each stage keeps its own).
int block_override(ChapterCli& cli, const ChapterOptions& options);

}  // namespace stepwise::reduction
