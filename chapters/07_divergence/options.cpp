#include "options.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>

#include "host/mode_options.hpp"
#include "host/sizes.hpp"

namespace stepwise::divergence {
namespace {

bool given(const Plan& plan, const char* name) {
  return std::find(plan.given.begin(), plan.given.end(), name) != plan.given.end();
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

/// `6 (pipelined-cpu)` when --stage's @p selector (a number or a name) names a row of the
/// mutation table that the synthetic table lacks, else "".
std::string stage_of_mutation_only(const std::string& selector, const std::vector<StageInfo>& synthetic,
                                   const std::vector<StageInfo>& mutation) {
  const auto matches = [&selector](const StageInfo& stage) {
    return (stage.kind == RowKind::kernel && std::to_string(stage.number) == selector) ||
           lowercase(stage.name) == lowercase(selector);
  };
  if (std::any_of(synthetic.begin(), synthetic.end(), matches)) return "";
  const auto stage = std::find_if(mutation.begin(), mutation.end(), matches);
  if (stage == mutation.end()) return "";
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

void add_chapter_options(ChapterCli& cli, Plan& plan, TableOf table_of) {
  CLI::App& app = cli.app();
  // An option of one workload: noted as given, for validate_plan.
  const auto noted = [&plan](CLI::Option* option) {
    const std::string name = option->get_name();
    return option->each([&plan, name](const std::string&) { plan.given.push_back(name); });
  };
  app.add_option_function<std::string>(
         "--workload", [&plan](const std::string& text) { plan.workload = parse_workload(text); },
         "synthetic (K paths of different cost, a chosen share of mixed warps) or mutation (a genetic "
         "algorithm's mutation step, generation after generation)")
      ->default_str("synthetic")
      ->check(parsed_by([](const std::string& text) { parse_workload(text); }, "synthetic|mutation"));
  noted(app.add_option("--paths", plan.paths, "Synthetic: the number of paths K, 1 to 8")
            ->capture_default_str()
            ->type_name("INT")
            ->transform(decimal_in(1, kMaxPaths)));
  noted(app.add_option_function<std::string>(
               "--costs", [&plan](const std::string& text) { plan.rounds = parse_costs(text); },
               "Synthetic: the rounds of each path, K values (default 64 x 2^p, at most 512: 64,128,256,512)")
            ->check(parsed_by([](const std::string& text) { parse_costs(text); }, "R0,R1,...")));
  noted(app.add_option_function<std::string>(
               "--divergence",
               [&plan](const std::string& text) { plan.divergence = parse_fraction(text, "divergence"); },
               "Synthetic: the share of warps whose elements draw their paths alone (0: every warp uniform, "
               "100%: every warp mixed)")
            ->default_str("100%")
            ->check(parsed_by([](const std::string& text) { parse_fraction(text, "divergence"); }, "P")));
  noted(app.add_option_function<std::string>(
               "--mutation-rate",
               [&plan](const std::string& text) { plan.mutation_rate = parse_fraction(text, "mutation rate"); },
               "Mutation: the chance that an individual mutates")
            ->default_str("10%")
            ->check(parsed_by([](const std::string& text) { parse_fraction(text, "mutation rate"); }, "P")));
  noted(app.add_option("--mutation-rounds", plan.mutation_rounds,
                       "Mutation: the bits a mutation flips, one after another")
            ->capture_default_str()
            ->type_name("INT")
            ->transform(decimal_in(1, 65536)));
  CLI::Option* steps = noted(app.add_option("--steps", plan.steps, "Mutation: the generations run (default 8)")
                                 ->type_name("INT")
                                 ->transform(decimal_in(1, 1000)));
  steps->excludes(cli.option("--analyze"));  // it analyzes the first generation
  app.final_callback([&cli, &plan, table_of] {
    if (plan.workload == WorkloadKind::mutation) return;
    Plan mutation;
    mutation.workload = WorkloadKind::mutation;
    const std::vector<StageInfo> synthetic_table = table_of(Plan{}), mutation_table = table_of(mutation);
    for (const std::string& selector : cli.option("--stage")->results()) {
      const std::string stage = stage_of_mutation_only(selector, synthetic_table, mutation_table);
      if (!stage.empty())
        throw CLI::ValidationError("--stage " + selector + ": stage " + stage + " exists only for --workload mutation");
    }
  });
}

void validate_plan(Plan& plan, const CommonOptions& options) {
  const std::uint64_t n = options.n;
  if (n > kMaxN) throw UsageError("--n " + format_count(n) + " is above 2^32 - 1 (the remap's indices are 32-bit)");
  if (plan.workload == WorkloadKind::synthetic) {
    for (const char* name : {"--mutation-rate", "--mutation-rounds", "--steps"})
      if (given(plan, name)) throw UsageError(std::string(name) + " applies to --workload mutation only");
    if (!given(plan, "--costs")) {
      plan.rounds.clear();
      for (unsigned p = 0; p < plan.paths; ++p) plan.rounds.push_back(default_rounds(p));
    } else if (plan.rounds.size() != plan.paths) {
      throw UsageError("--costs lists " + std::to_string(plan.rounds.size()) + " paths; --paths is " +
                       std::to_string(plan.paths));
    }
    plan.steps = 1;
  } else {
    for (const char* name : {"--paths", "--costs", "--divergence"})
      if (given(plan, name)) throw UsageError(std::string(name) + " applies to --workload synthetic only");
    plan.paths = Mutation::paths;
    plan.rounds = {1, plan.mutation_rounds};
    if (!given(plan, "--steps")) plan.steps = kDefaultGenerations;
  }
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
