#include "options.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>

#include "host/mode_options.hpp"
#include "host/sizes.hpp"

namespace stepwise::divergence {
namespace {

bool given(ChapterCli& cli, const char* name) { return cli.app().count(name) > 0; }

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

/// `6 (pipelined-cpu)` when --stage's @p selector (a number or a name) names a row of the
/// mutation table that the synthetic table lacks, else "".
std::string stage_of_mutation_only(const std::string& selector, const WorkloadTables& tables) {
  const auto matches = [&selector](const StageInfo& stage) {
    return (stage.kind == RowKind::kernel && std::to_string(stage.number) == selector) ||
           lowercase(stage.name) == lowercase(selector);
  };
  if (std::any_of(tables.synthetic.begin(), tables.synthetic.end(), matches)) return "";
  const auto stage = std::find_if(tables.mutation.begin(), tables.mutation.end(), matches);
  if (stage == tables.mutation.end()) return "";
  return std::to_string(stage->number) + " (" + stage->name + ")";
}

std::string percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%g %%", share * 100.0);
  return text;
}

}  // namespace

ChapterInfo chapter_info() {
  ChapterInfo info;
  info.id = "07";
  info.name = "divergence";
  info.title = "branch divergence and thread-data remapping: measured, remapped on the fly, never slower";
  info.default_n = kDefaultN;
  info.min_n = 1;
  info.reference_lesson = "each element's path's work, element after element";
  return info;
}

WorkloadKind parse_workload(const std::string& text) {
  if (text == "synthetic") return WorkloadKind::synthetic;
  if (text == "mutation") return WorkloadKind::mutation;
  throw std::invalid_argument("'" + text + "' is not a workload: synthetic or mutation");
}

std::vector<unsigned> parse_costs(const std::string& text) {
  std::vector<unsigned> rounds;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = text.find(',', begin);
    const std::string item = text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    try {
      rounds.push_back(static_cast<unsigned>(parse_decimal(item, 0, 65536)));
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument("'" + text +
                                  "' is not a list of rounds per path: e.g. 64,128,256,512 (each 0 to 65536)");
    }
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  if (rounds.size() > kMaxPaths) throw std::invalid_argument("'" + text + "' lists more than 8 paths");
  return rounds;
}

void add_chapter_options(ChapterCli& cli, ChapterOptions& options, const WorkloadTables* tables) {
  CLI::App& app = cli.app();
  app.add_option("--workload", options.workload,
                 "synthetic (K paths of different cost, a chosen share of mixed warps) or mutation (a genetic "
                 "algorithm's mutation step, generation after generation)")
      ->capture_default_str()
      ->check(parsed_by([](const std::string& text) { parse_workload(text); }, "synthetic|mutation"));
  app.add_option("--paths", options.paths, "Synthetic: the number of paths K, 1 to 8")
      ->capture_default_str()
      ->transform(decimal_in(1, kMaxPaths));
  app.add_option("--costs", options.costs,
                 "Synthetic: the rounds of each path, K values (default 64 x 2^p, at most 512: 64,128,256,512)")
      ->check(parsed_by([](const std::string& text) { parse_costs(text); }, "R0,R1,..."));
  app.add_option("--divergence", options.divergence,
                 "Synthetic: the share of warps whose elements draw their paths alone (0: every warp uniform, "
                 "100%: every warp mixed)")
      ->capture_default_str()
      ->check(parsed_by([](const std::string& text) { parse_fraction(text, "divergence"); }, "P"));
  app.add_option("--mutation-rate", options.mutation_rate, "Mutation: the chance that an individual mutates")
      ->capture_default_str()
      ->check(parsed_by([](const std::string& text) { parse_fraction(text, "mutation rate"); }, "P"));
  app.add_option("--mutation-rounds", options.mutation_rounds, "Mutation: the bits a mutation flips, one after another")
      ->capture_default_str()
      ->transform(decimal_in(1, 65536));
  app.add_option("--steps", options.steps, "Mutation: the generations run (default 8)")->transform(decimal_in(1, 1000));
  CLI::Option* analyze = cli.add_analyze_flag(
      options.analyze,
      "Print the paths, the divergent warps and each stage's warp efficiency and moved elements (of the first 2^26 "
      "elements at most), as a table or (--format json) with the paper's path-vector example, the document "
      "tools/plot draws the remapping diagram from; needs no GPU",
      {"--n", "--seed", "--format"});
  analyze->excludes(app.get_option("--steps"));  // it analyzes the first generation
  app.final_callback([&cli, &options, tables] {
    if (options.analyze && given(cli, "--format")) {
      const std::string format = cli.option("--format")->as<std::string>();
      if (format != "table" && format != "json")
        throw CLI::ValidationError("--format " + format + ": --analyze prints table or json");
    }
    if (tables != nullptr) {
      if (options.workload == "mutation") return;
      for (const std::string& selector : cli.option("--stage")->results()) {
        const std::string stage = stage_of_mutation_only(selector, *tables);
        if (!stage.empty())
          throw CLI::ValidationError("--stage " + selector + ": stage " + stage +
                                     " exists only for --workload mutation");
      }
    }
  });
}

WorkloadKind workload_in_arguments(int argc, const char* const* argv) {
  ChapterOptions options;
  const bool parsed =
      probe_chapter_options(argc, argv, chapter_info(), options,
                            [](ChapterCli& cli, ChapterOptions& read) { add_chapter_options(cli, read); });
  return parsed ? parse_workload(options.workload) : WorkloadKind::synthetic;
}

Plan make_plan(ChapterCli& cli, const ChapterOptions& options, std::uint64_t n) {
  if (n > kMaxN) throw UsageError("--n " + format_count(n) + " is above 2^32 - 1 (the remap's indices are 32-bit)");
  Plan plan;
  plan.workload = parse_workload(options.workload);
  plan.analyze = options.analyze;
  if (plan.workload == WorkloadKind::synthetic) {
    for (const char* name : {"--mutation-rate", "--mutation-rounds", "--steps"})
      if (given(cli, name)) throw UsageError(std::string(name) + " applies to --workload mutation only");
    plan.paths = static_cast<unsigned>(options.paths);
    plan.divergence = parse_fraction(options.divergence, "divergence");
    if (options.costs.empty()) {
      for (unsigned p = 0; p < plan.paths; ++p) plan.rounds.push_back(default_rounds(p));
    } else {
      plan.rounds = parse_costs(options.costs);
      if (plan.rounds.size() != plan.paths)
        throw UsageError("--costs lists " + std::to_string(plan.rounds.size()) + " paths; --paths is " +
                         std::to_string(plan.paths));
    }
    plan.steps = 1;
  } else {
    for (const char* name : {"--paths", "--costs", "--divergence"})
      if (given(cli, name)) throw UsageError(std::string(name) + " applies to --workload synthetic only");
    plan.paths = Mutation::paths;
    plan.mutation_rate = parse_fraction(options.mutation_rate, "mutation rate");
    plan.mutation_rounds = static_cast<unsigned>(options.mutation_rounds);
    plan.rounds = {1, plan.mutation_rounds};
    plan.steps = options.steps > 0 ? static_cast<unsigned>(options.steps) : kDefaultGenerations;
  }
  return plan;
}

namespace {

/// Bytes of one element of @p plan's workload: a uint32, or a 128-bit genome.
double item_bytes(const Plan& plan) { return plan.workload == WorkloadKind::mutation ? 16.0 : 4.0; }

}  // namespace

double host_bytes(const Plan& plan, std::uint64_t n) {
  const double elements = static_cast<double>(n);
  // The input, the reference, the reference rerun by the cpu row beside the one it replaces, and
  // the output the check downloads.
  const double items = 5.0 * item_bytes(plan) * elements;
  return items + (plan.workload == WorkloadKind::mutation ? 8.0 * elements : 0.0);  // stage 6's two pinned remaps
}

double device_bytes(const Plan& plan, std::uint64_t n) {
  // in, out, spare and the staged elements and results; flags, two sets of keys and sorted keys
  // (1 byte each), two sets of indices and sorted indices (4 bytes each).
  return static_cast<double>(n) * (5.0 * item_bytes(plan) + 1.0 + 4.0 * 1.0 + 4.0 * 4.0);
}

double analysis_host_bytes(const Plan& plan, std::uint64_t n) {
  // The paths (1 byte), the input they are drawn from (gone before the rest), three orders of
  // 4-byte indices and the partial remap's moves.
  const double elements = static_cast<double>(std::min(n, kMaxAnalyzedElements));
  return elements * std::max(item_bytes(plan), 1.0 + 4.0 * 4.0) + elements;
}

std::string describe_workload(const Plan& plan) {
  if (plan.workload == WorkloadKind::mutation)
    return "mutation, " + std::to_string(plan.steps) + " generations, rate " + percent(plan.mutation_rate) + ", " +
           std::to_string(plan.mutation_rounds) + " bits flipped per mutation";
  std::string rounds;
  for (unsigned r : plan.rounds) rounds += (rounds.empty() ? "" : "/") + std::to_string(r);
  return "synthetic, " + std::to_string(plan.paths) + " paths (rounds " + rounds + "), " + percent(plan.divergence) +
         " of warps mixed";
}

}  // namespace stepwise::divergence
