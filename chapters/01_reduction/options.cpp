// The options of chapter 01 and what --analyze prints from them.
#include "options.hpp"

#include "host/mode_options.hpp"
#include "reduce_analysis.hpp"
#include "reduction.hpp"

namespace stepwise::reduction {

void add_chapter_options(ChapterCli& cli, ChapterOptions& options) {
  cli.app()
      .add_option("--type", options.type, "Element type: int32 (summed mod 2^32) or float32")
      ->check(CLI::IsMember({"int32", "float32"}))
      ->capture_default_str();
  cli.app()
      .add_option("--block", options.block,
                  "Threads per block of stages 1-10 (11 and 12 keep their tuned shape); with --analyze, of the "
                  "step tables")
      ->check(CLI::IsMember(Blocks::values()))
      ->capture_default_str()
      ->excludes(cli.option("--sweep"));
  CLI::Option* analyze = cli.add_analyze_flag(
      options.analyze,
      "Replay kernels 1-3's index maps on the CPU and exit: a table, or with --format json the document "
      "tools/plot draws the trees and lanes-to-banks diagrams from",
      {"--format"});
  cli.app()
      .add_option("--tree-block", options.tree_block,
                  "--analyze --format json: the words (threads) of the small block whose "
                  "addition trees are drawn (not a launch size)")
      ->check(CLI::IsMember({4, 8, 16, 32, 64}))
      ->capture_default_str()
      ->needs(analyze);
  analyze->excludes(cli.option("--type"));
  cli.app().final_callback([&cli] { require_stage_selected(cli, "--block", 1, kLastBlockOptionStage, "stages 1-10"); });
}

double host_bytes(const ChapterOptions& options, std::uint64_t n) {
  // int32: the draw and its copy as uint32 (float32: the draw alone); the sum is one value.
  return (options.type == "float32" ? 4.0 : 8.0) * static_cast<double>(n);
}

std::string analysis(ChapterCli& cli, const ChapterOptions& options) {
  const Format format = cli.options().format;
  if (format != Format::table && format != Format::json)
    throw UsageError(std::string("--format ") + to_string(format) + ": --analyze prints table or json");
  if (cli.option("--tree-block")->count() > 0 && format != Format::json)
    throw UsageError("--tree-block: only --analyze --format json draws the trees");
  const auto block = static_cast<unsigned>(options.block);
  return format == Format::json ? analysis_json(cli.chapter(), block, static_cast<unsigned>(options.tree_block))
                                : analysis_report(block);
}

int block_override(ChapterCli& cli, const ChapterOptions& options) {
  return cli.option("--block")->count() > 0 ? options.block : 0;
}

}  // namespace stepwise::reduction
