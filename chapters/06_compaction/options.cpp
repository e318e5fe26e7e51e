#include "options.hpp"

#include <cstdio>
#include <stdexcept>

#include "host/mode_options.hpp"

namespace stepwise::compaction {

const char* to_string(KeyType type) { return type == KeyType::float32 ? "float32" : "int32"; }

ChapterInfo chapter_info() {
  ChapterInfo info;
  info.id = "06";
  info.name = "compaction";
  info.title = "stream compaction: from one atomic per element to a single ordered pass, against cub::DeviceSelect";
  info.default_n = kDefaultN;
  info.min_n = 1;
  info.reference_lesson = "a sequential filter: the kept elements in input order";
  return info;
}

void add_chapter_options(ChapterCli& cli, ChapterOptions& options) {
  CLI::App& app = cli.app();
  app.add_option("--type", options.type, "Key type: int32 or float32")
      ->capture_default_str()
      ->check(CLI::IsMember({"int32", "float32"}));
  app.add_option("--selectivity", options.selectivity,
                 "The share of elements kept: a percentage (1%, 50%, 99%) or a fraction in [0, 1]")
      ->capture_default_str()
      ->check(parsed_by([](const std::string& text) { parse_selectivity(text); }, "P"));
  app.add_option("--pattern", options.pattern,
                 "Where the kept elements lie: random (each one drawn alone) or runs:R (runs of R elements kept or "
                 "dropped together)")
      ->capture_default_str()
      ->check(parsed_by([](const std::string& text) { parse_pattern(text); }, "random|runs:R"));
  cli.add_flag("--flags", options.flags,
               "Keep by a flag byte per element (DeviceSelect::Flagged) instead of the predicate key < 0 "
               "(DeviceSelect::If)");
  cli.add_flag("--payload", options.payload, "Each key carries an int32 value, kept with it");
  app.add_option("--first-poll-ns", options.first_poll_ns,
                 "Stages 6 and 7: how long a tile's look-back waits after publishing its count before its first poll "
                 "(0: at once; default: each stage's tuned value, 1245 for stage 6 and 2600 for stage 7)")
      ->transform(decimal_in(0, 100000));
  cli.add_flag("--ticket-first", options.ticket_first,
               "Stage 7: draw the ticket before loading the tile, instead of loading tile blockIdx.x meanwhile");
  CLI::Option* analyze = cli.add_analyze_flag(
      options.analyze,
      "Print what each stage costs on this input (atomics, passes over the input, launches, bytes; counted on the "
      "first 2^26 elements at most), as a table or (--format json) with the packing and look-back examples that "
      "tools/plot draws; needs no GPU",
      {"--n", "--seed", "--format"});
  for (const char* name : {"--type", "--first-poll-ns", "--ticket-first"}) analyze->excludes(app.get_option(name));
  app.final_callback([&cli] {
    require_stage_selected(cli, "--first-poll-ns", 6, 7, "stages 6 and 7");
    require_stage_selected(cli, "--ticket-first", 7, 7, "stage 7");
  });
}

bool flags_in_arguments(int argc, const char* const* argv) {
  ChapterOptions options;
  const bool parsed =
      probe_chapter_options(argc, argv, chapter_info(), options,
                            [](ChapterCli& cli, ChapterOptions& read) { add_chapter_options(cli, read); });
  return parsed && options.flags;
}

double host_bytes(const Plan& plan, std::uint64_t n) {
  const double elements = static_cast<double>(n);
  const double kept = plan.selectivity * elements;
  const double element = 4.0 + (plan.payload ? 4.0 : 0.0);    // a kept key, and its value
  return elements * (4.0 + 1.0 + (plan.payload ? 4.0 : 0.0))  // the input: keys, flags, values
         + 4.0 * kept * element                               // the reference and its rerun, each up to twice its size
         + elements * element                                 // the output the check downloads
         + 3.0 * 8.0 * kept;                                  // an unordered row's check: two sorted copies and scratch
}

Plan make_plan(const ChapterOptions& options) {
  Plan plan;
  plan.type = options.type == "float32" ? KeyType::float32 : KeyType::int32;
  plan.selectivity = parse_selectivity(options.selectivity);
  plan.pattern = parse_pattern(options.pattern);
  plan.by_flags = options.flags;
  plan.payload = options.payload;
  if (options.first_poll_ns >= 0) plan.first_poll_ns = static_cast<unsigned>(options.first_poll_ns);
  plan.speculative = !options.ticket_first;
  plan.analyze = options.analyze;
  return plan;
}

std::string describe_input(const Plan& plan) {
  char percent[32];
  std::snprintf(percent, sizeof percent, "%g", plan.selectivity * 100.0);
  return std::string(percent) + " % kept (" + to_string(plan.pattern) + "), " +
         (plan.by_flags ? "by flag bytes" : "by key < 0") + (plan.payload ? ", int32 payload" : "");
}

}  // namespace stepwise::compaction
