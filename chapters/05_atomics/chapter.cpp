// Chapter 05's spec: its options bound to the plan, the table of the plan's problem (--problem
// picks it, however it is spelled), the checks of the combinations, --analyze and the run.
#include "chapter.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "atomics.hpp"
#include "host/host_memory.hpp"
#include "host/sizes.hpp"
#include "problems.hpp"

namespace stepwise::atomics {
namespace {

/// --bins: a count as --n takes it (`65536`, `64Ki`, `2^24`), in [1, kMaxBins], rewritten in
/// decimal for CLI11.
CLI::Validator bins_count() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        try {
          const std::uint64_t bins = parse_count(value);
          if (bins < 1 || bins > static_cast<std::uint64_t>(kMaxBins)) return "'" + value + "' is not in [1, 2^24]";
          value = std::to_string(bins);
          return {};
        } catch (const std::invalid_argument& error) {
          return error.what();
        }
      },
      "COUNT in [1, 2^24]");
}

/// Records in @p plan that option @p option was given.
void mark_given(Plan& plan, const std::string& option) {
  if (std::find(plan.given.begin(), plan.given.end(), option) == plan.given.end()) plan.given.push_back(option);
}

bool given(const Plan& plan, const std::string& option) {
  return std::find(plan.given.begin(), plan.given.end(), option) != plan.given.end();
}

void add_options(ChapterCli& cli, Plan& plan) {
  CLI::App& app = cli.app();
  app.add_option_function<std::string>(
         "--problem",
         [&plan](const std::string& text) {
           plan.problem = text == "ticket" ? ProblemKind::ticket : ProblemKind::histogram;
         },
         "histogram (scatter-add of n values into K bins) or ticket (a filter's counter: "
         "out[atomicAdd(counter, 1)] = value)")
      ->default_str("histogram")
      ->check(CLI::IsMember({"histogram", "ticket"}));
  app.add_option_function<int>(
         "--bins",
         [&plan](int bins) {
           plan.bins = bins;
           mark_given(plan, "--bins");
         },
         "K, the number of bins: 1 to 2^24, written as --n is (256, 64Ki, 2^24; histogram only)")
      ->default_str("256")
      ->transform(bins_count());
  app.add_option_function<std::string>(
         "--distribution",
         [&plan](const std::string& text) {
           plan.distribution = parse_distribution(text);
           mark_given(plan, "--distribution");
         },
         "Keys: uniform, runs:R (runs of R equal keys, each warp's 32 / R runs on distinct random bins), "
         "strided:R (the same runs on bins K / (32 / R) apart: at --bins 1024 a warp's keys share one "
         "shared-memory bank), zipf:S (bin b with weight 1/(b+1)^S) or all-equal")
      ->default_str("uniform")
      ->check(parsed_by([](const std::string& text) { parse_distribution(text); },
                        "uniform|runs:R|strided:R|zipf:S|all-equal"));
  CLI::Option* op = app.add_option_function<std::string>(
                           "--op",
                           [&plan](const std::string& text) {
                             plan.op = text == "float-add"    ? OpKind::float_add
                                       : text == "double-cas" ? OpKind::double_cas
                                                              : OpKind::int_add;
                             mark_given(plan, "--op");
                           },
                           "int-add (count: a histogram), float-add (native float atomicAdd of values) or double-cas "
                           "(double values added with an atomicCAS loop)")
                        ->default_str("int-add")
                        ->check(CLI::IsMember({"int-add", "float-add", "double-cas"}));
  CLI::Option* surface = cli.add_flag("--surface", plan.surface,
                                      "Time the stages over 1, 2, 4, ..., 32 distinct keys per warp and each --op (all "
                                      "three unless --op is given); print the speedups over stage 1");
  CLI::Option* analyze = cli.option("--analyze");
  analyze->excludes(surface);
  analyze->excludes(op);
  surface->excludes(cli.option("--sweep"));
}

/// The checks no single option makes; completes the plan's surface_ops and sizes.
void validate(Plan& plan, const CommonOptions& options) {
  if (plan.problem == ProblemKind::ticket) {
    for (const char* name : {"--bins", "--distribution", "--op"})
      if (given(plan, name)) throw UsageError(std::string(name) + ": only --problem histogram has it");
    if (plan.surface) throw UsageError("--surface: only --problem histogram has it");
    if (options.analyze) throw UsageError("--analyze: only --problem histogram has it");
  }
  const std::vector<OpKind> ops = plan.surface && !given(plan, "--op") ? all_ops() : std::vector<OpKind>{plan.op};
  const bool library_row =
      plan.problem == ProblemKind::histogram && std::find(ops.begin(), ops.end(), OpKind::int_add) != ops.end();
  if (!library_row && plan.problem == ProblemKind::histogram)
    for (const HistogramStage<IntAdd>& stage : histogram_stages<IntAdd>())
      if (stage.kind == RowKind::library &&
          std::find(options.stages.begin(), options.stages.end(), stage.name) != options.stages.end())
        throw UsageError("--stage " + stage.name + ": --op " + to_string(plan.op) +
                         " has no library row (cub::DeviceHistogram counts: it has no weights)");
  if (plan.surface) {
    if (given(plan, "--distribution"))
      throw UsageError("--distribution: --surface draws its own keys (runs of 32, 16, ..., 1)");
    if (plan.bins < 32) throw UsageError("--bins " + std::to_string(plan.bins) + ": --surface needs at least 32 bins");
    if (options.format == Format::csv) throw UsageError("--format csv: --surface prints table, markdown or json");
    plan.surface_ops = ops;
  }
  // The sizes as messages about memory name them: --n when given (its value, as format_count
  // writes it), else the default.
  const std::string n_text = "--n " + format_count(options.n);
  plan.sizes.clear();
  if (options.n_given) plan.sizes = n_text;
  if (given(plan, "--bins"))
    plan.sizes += (plan.sizes.empty() ? "" : " ") + std::string("--bins ") + std::to_string(plan.bins);
  if (plan.sizes.empty()) plan.sizes = "the default " + n_text;
}

std::string print_analysis(const Plan& plan, const CommonOptions& options) {
  require_host_bytes(analysis_host_bytes(plan, options.n), plan.sizes);
  const std::vector<HistogramRow> rows = facts_of(histogram_stages<IntAdd>());
  return options.format == Format::json ? analyze_json(plan, options.n, options.seed, rows)
                                        : analyze(plan, options.n, options.seed, rows);
}

int run(Session& session, const Plan& plan) { return run_plan(session, plan); }

}  // namespace

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = [](const Plan& plan) { return chapter_info(plan.problem); };
  spec.add_options = add_options;
  // The histogram's table as --list and --stage see it is the int-add one: the other operations
  // have the same stages and no CUB row.
  spec.stages = [](const Plan& plan) {
    return plan.problem == ProblemKind::ticket ? describe(ticket_stages()) : describe(histogram_stages<IntAdd>());
  };
  spec.validate = validate;
  spec.require_host_memory = [](const Plan& plan, const CommonOptions& options) {
    require_host_bytes(host_bytes(plan, options.n), plan.sizes);
  };
  spec.analyze = {
      "Print the talk's worked examples, the distinct keys per warp of these keys (the first 2^26 of them at most) "
      "and the atomics each stage issues per element, as a table or (--format json) the document tools/plot draws "
      "the peers and sub-tree diagrams from; needs no GPU",
      {"--n", "--seed", "--format"},
      {Format::table, Format::json},
      print_analysis};
  spec.run = run;
  spec.problems = {
      {"256 bins", {"--problem", "histogram", "--op", "int-add", "--bins", "256"}},
      {"65536 bins", {"--problem", "histogram", "--op", "int-add", "--bins", "64Ki"}},
  };
  return spec;
}

}  // namespace stepwise::atomics
