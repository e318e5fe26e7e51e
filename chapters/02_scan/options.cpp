// The options of chapter 02 and what --analyze prints from them.
#include "options.hpp"

#include <stdexcept>

#include "bank_conflicts.hpp"
#include "host/mode_options.hpp"

namespace stepwise::scan {

void add_chapter_options(ChapterCli& cli, ChapterOptions& options) {
  CLI::App& app = cli.app();
  app.add_option("--type", options.type, "Element type: int32 (added as uint32, wrapping) or float32")
      ->capture_default_str()
      ->check(CLI::IsMember({"int32", "float32"}));
  app.add_option("--scan", options.scan, "exclusive or inclusive (the CUB row follows)")
      ->capture_default_str()
      ->check(CLI::IsMember({"exclusive", "inclusive"}));
  const std::string single_pass_tile = describe(single_pass<WrappingAdd>().shape);
  app.add_option("--nt", options.nt,
                 "Threads per block: of --analyze's tile, or with --vt of the single-pass stage's (default there: " +
                     single_pass_tile + ")")
      ->capture_default_str()
      ->transform(decimal_in(32, 1024))
      ->excludes(cli.option("--sweep"));
  app.add_option("--vt", options.vts,
                 "Values per thread: one or more for --analyze, or one with --nt for the single-pass stage")
      ->capture_default_str()
      ->transform(decimal_in(1, 32))
      ->excludes(cli.option("--sweep"));
  app.add_option("--backoff-ns", options.backoff_ns,
                 "Single pass, look-back: the first back-off sleep in ns while a predecessor has published nothing, "
                 "doubling up to 8x (0: spin)")
      ->capture_default_str()
      ->transform(decimal_in(0, 100000));
  app.add_option("--first-poll-ns", options.first_poll_ns,
                 "Single pass, look-back: sleep this long after publishing the tile's aggregate, before the first "
                 "poll (0: poll at once)")
      ->capture_default_str()
      ->transform(decimal_in(0, 100000));
  cli.add_flag("--ticket-first", options.ticket_first,
               "Single pass: draw the ticket before loading (no speculative load)");
  cli.add_flag("--scalar-transpose", options.scalar_transpose,
               "Reduce-then-scan stages: 32-bit shared accesses on the transposes' thread-order side (volatile), "
               "as Baxter's talk counts them, instead of the compiler's 128-bit ones at VT = 8");
  cli.add_flag("--vector-transpose", options.vector_transpose,
               "Single pass, tiles with VT a multiple of 4: explicit 128-bit shared accesses on the transposes' "
               "thread-order side");
  CLI::Option* analyze = cli.add_analyze_flag(
      options.analyze,
      "Print the bank conflicts of the transposes (for --nt and --vt) and of Blelloch's tree, and a look-back "
      "example, as a table or (--format json) for tools/plot; needs no GPU",
      {"--format"});
  for (const char* name : {"--type", "--scan", "--backoff-ns", "--first-poll-ns", "--ticket-first",
                           "--scalar-transpose", "--vector-transpose"})
    analyze->excludes(cli.option(name));
  // Options that tune some stages only do nothing when --stage leaves those out (--analyze,
  // which reads --nt and --vt, refuses --stage).
  app.final_callback([&cli, &options] {
    for (const char* name : {"--nt", "--vt", "--backoff-ns", "--first-poll-ns", "--ticket-first", "--vector-transpose"})
      require_stage_selected(cli, name, kSinglePassStage, kSinglePassStage, "the single-pass stage (7)");
    require_stage_selected(cli, "--scalar-transpose", kFirstReduceThenScanStage, kLastReduceThenScanStage,
                           "the reduce-then-scan stages (4-6)");
    if (options.analyze) return;
    try {
      scan::single_pass_tile(cli, options);  // so that --check-options refuses a tile the run would refuse
    } catch (const UsageError& error) {
      throw CLI::ValidationError(error.what());
    }
  });
}

double host_bytes(const ChapterOptions& options, std::uint64_t n) {
  // int32: the input, the reference and the output the check downloads. float32: the input,
  // the reference in double and its rerun beside it, each element's error bound (double), and
  // the downloaded output.
  return (options.type == "float32" ? 4.0 + 8.0 + 8.0 + 8.0 + 4.0 : 12.0) * static_cast<double>(n);
}

std::string analysis(const ChapterCli& cli, const ChapterOptions& options) {
  const Format format = cli.options().format;
  if (format != Format::table && format != Format::json)
    throw UsageError(std::string("--format ") + to_string(format) + ": --analyze prints table or json");
  try {
    return format == Format::json ? analysis_json(options.nt, options.vts)
                                  : bank_conflict_table(options.nt, options.vts);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
}

std::optional<LaunchShape> single_pass_tile(ChapterCli& cli, const ChapterOptions& options) {
  const bool nt_given = cli.option("--nt")->count() > 0, vt_given = cli.option("--vt")->count() > 0;
  if (!nt_given && !vt_given) return std::nullopt;
  try {
    if (!nt_given || options.vts.size() != 1) throw std::invalid_argument("give both, one value each");
    const LaunchShape tile{options.nt, options.vts.front()};
    if (options.vector_transpose && tile.items % 4 != 0)
      throw std::invalid_argument("--vector-transpose needs a VT that is a multiple of 4 (128-bit accesses): " +
                                  std::to_string(tile.items) + " is not");
    std::vector<ScanStage<WrappingAdd>> stages = scan_stages<WrappingAdd>();
    set_tile(stages, tile);  // refuses a tile the single pass does not compile, before the GPU opens
    return tile;
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--nt, --vt: ") + error.what());
  }
}

ScanOptions scan_options(const ChapterOptions& options) {
  ScanOptions result;
  result.kind = options.scan == "inclusive" ? ScanKind::inclusive : ScanKind::exclusive;
  result.backoff_ns = options.backoff_ns;
  result.first_poll_ns = options.first_poll_ns;
  result.speculative = !options.ticket_first;
  result.scalar_transpose = options.scalar_transpose;
  result.vector_transpose = options.vector_transpose;
  return result;
}

}  // namespace stepwise::scan
