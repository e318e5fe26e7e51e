#include "options.hpp"

#include <stdexcept>

namespace stepwise::atomics {
namespace {

/// The value of option @p name in @p arguments (`--name X` or `--name=X`; the last one), or "".
std::string value_of(const std::vector<std::string>& arguments, const std::string& name) {
  std::string value;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == name && i + 1 < arguments.size())
      value = arguments[i + 1];
    else if (arguments[i].rfind(name + "=", 0) == 0)
      value = arguments[i].substr(name.size() + 1);
  }
  return value;
}

OpKind parse_op(const std::string& name) {
  if (name == "float-add") return OpKind::float_add;
  if (name == "double-cas") return OpKind::double_cas;
  return OpKind::int_add;
}

}  // namespace

const char* to_string(ProblemKind problem) { return problem == ProblemKind::ticket ? "ticket" : "histogram"; }

const char* to_string(OpKind op) {
  switch (op) {
    case OpKind::float_add:
      return "float-add";
    case OpKind::double_cas:
      return "double-cas";
    case OpKind::int_add:
      break;
  }
  return "int-add";
}

const std::vector<OpKind>& all_ops() {
  static const std::vector<OpKind> ops = {OpKind::int_add, OpKind::float_add, OpKind::double_cas};
  return ops;
}

const std::vector<int>& surface_keys_per_warp() {
  static const std::vector<int> keys = {1, 2, 4, 8, 16, 32};
  return keys;
}

ProblemKind problem_in_arguments(const std::vector<std::string>& arguments) {
  return value_of(arguments, "--problem") == "ticket" ? ProblemKind::ticket : ProblemKind::histogram;
}

ChapterInfo chapter_info(ProblemKind problem) {
  ChapterInfo info;
  info.id = "05";
  info.name = "atomics";
  info.default_n = kDefaultN;
  info.min_n = 1;
  if (problem == ProblemKind::ticket) {
    info.title = "the filter's ticket: one atomicAdd per kept value, or one per warp (ballot + popc)";
    info.reference_lesson = "a sequential filter: the kept values in input order";
  } else {
    info.title =
        "warp-aggregated atomics: a histogram from one atomic per element to one per key per warp, against CUB";
    info.reference_lesson = "a sequential scatter-add: bins[key] += value in input order (double accumulators)";
  }
  return info;
}

void add_chapter_options(ChapterCli& cli, ChapterOptions& options) {
  CLI::App& app = cli.app();
  app.add_option("--problem", options.problem,
                 "histogram (scatter-add of n values into K bins) or ticket (a filter's counter: "
                 "out[atomicAdd(counter, 1)] = value)")
      ->capture_default_str()
      ->check(CLI::IsMember({"histogram", "ticket"}));
  app.add_option("--bins", options.bins, "K, the number of bins (1 to 2^24; histogram only)")
      ->capture_default_str()
      ->transform(decimal_in(1, kMaxBins));
  app.add_option("--distribution", options.distribution,
                 "Keys: uniform, runs:R (runs of R equal keys), zipf:S (bin b with weight 1/(b+1)^S) or all-equal")
      ->capture_default_str()
      ->check(parsed_by([](const std::string& text) { parse_distribution(text); }, "uniform|runs:R|zipf:S|all-equal"));
  app.add_option("--op", options.op,
                 "int-add (count: a histogram), float-add (native float atomicAdd of values) or double-cas "
                 "(double values added with an atomicCAS loop)")
      ->capture_default_str()
      ->check(CLI::IsMember({"int-add", "float-add", "double-cas"}));
  CLI::Option* surface = cli.add_flag("--surface", options.surface,
                                      "Time the stages over 1, 2, 4, ..., 32 distinct keys per warp and each --op (all "
                                      "three unless --op is given); print the speedups over stage 1");
  CLI::Option* analyze =
      cli.add_flag("--analyze", options.analyze,
                   "Print the talk's worked example, the distinct keys per warp of these keys and the atomics each "
                   "stage issues per element; needs no GPU");
  for (const char* name : {"--stage", "--sweep", "--format", "--output"}) analyze->excludes(cli.option(name));
  analyze->excludes(surface);
  surface->excludes(cli.option("--sweep"));
  cli.app().final_callback([&cli, &options] { check_chapter_options(cli, options); });
}

namespace {

Plan plan_for(ChapterCli& cli, const ChapterOptions& options) {
  Plan plan;
  plan.problem = problem_in_arguments({"--problem", options.problem});
  plan.bins = options.bins;
  plan.distribution = parse_distribution(options.distribution);
  plan.op = parse_op(options.op);
  plan.surface = options.surface;
  plan.analyze = options.analyze;
  const auto given = [&cli](const char* name) { return cli.app().get_option(name)->count() > 0; };
  if (plan.problem == ProblemKind::ticket) {
    for (const char* name : {"--bins", "--distribution", "--op", "--surface", "--analyze"})
      if (given(name)) throw UsageError(std::string(name) + ": only --problem histogram has it");
  }
  if (plan.surface) {
    if (given("--distribution"))
      throw UsageError("--distribution: --surface draws its own keys (runs of 32, 16, ..., 1)");
    if (plan.bins < 32) throw UsageError("--bins " + std::to_string(plan.bins) + ": --surface needs at least 32 bins");
    if (given("--format") && cli.option("--format")->as<std::string>() == "csv")
      throw UsageError("--format csv: --surface prints table, markdown or json");
    plan.surface_ops = given("--op") ? std::vector<OpKind>{plan.op} : all_ops();
  }
  return plan;
}

}  // namespace

void check_chapter_options(ChapterCli& cli, const ChapterOptions& options) {
  try {
    plan_for(cli, options);
  } catch (const UsageError& error) {
    throw CLI::ValidationError(error.what());
  } catch (const std::invalid_argument& error) {
    throw CLI::ValidationError(error.what());
  }
}

Plan make_plan(ChapterCli& cli, const ChapterOptions& options) { return plan_for(cli, options); }

}  // namespace stepwise::atomics
