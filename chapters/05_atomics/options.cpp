#include "options.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "host/mode_options.hpp"
#include "host/sizes.hpp"

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

/// True when @p selector, a --stage value, names the library row: `lib`, `library` or its name.
bool names_library_row(std::string selector) {
  std::transform(selector.begin(), selector.end(), selector.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return selector == "lib" || selector == "library" || selector == "cub::devicehistogram";
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
  std::vector<const char*> argv = {"chapter_05_atomics"};
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());
  ChapterOptions options;
  const bool parsed =
      probe_chapter_options(static_cast<int>(argv.size()), argv.data(), chapter_info(ProblemKind::histogram), options,
                            [](ChapterCli& cli, ChapterOptions& read) { add_chapter_options(cli, read); });
  return parsed && options.problem == "ticket" ? ProblemKind::ticket : ProblemKind::histogram;
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
  app.add_option("--bins", options.bins,
                 "K, the number of bins: 1 to 2^24, written as --n is (256, 64Ki, 2^24; histogram only)")
      ->capture_default_str()
      ->transform(bins_count());
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
  CLI::Option* analyze = cli.add_analyze_flag(
      options.analyze,
      "Print the talk's worked examples, the distinct keys per warp of these keys (the first 2^26 of them at most) "
      "and the atomics each stage issues per element, as a table or (--format json) the document tools/plot draws "
      "the peers and sub-tree diagrams from; needs no GPU",
      {"--n", "--seed", "--format"});
  analyze->excludes(surface);
  analyze->excludes(app.get_option("--op"));
  surface->excludes(cli.option("--sweep"));
  cli.app().final_callback([&cli, &options] { check_chapter_options(cli, options); });
}

namespace {

Plan plan_for(ChapterCli& cli, const ChapterOptions& options) {
  Plan plan;
  plan.problem = options.problem == "ticket" ? ProblemKind::ticket : ProblemKind::histogram;
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
  const std::vector<OpKind> ops =
      plan.surface ? (given("--op") ? std::vector<OpKind>{plan.op} : all_ops()) : std::vector<OpKind>{plan.op};
  const bool library_row =
      plan.problem == ProblemKind::histogram && std::find(ops.begin(), ops.end(), OpKind::int_add) != ops.end();
  if (!library_row)
    for (const std::string& selector : cli.option("--stage")->results())
      if (names_library_row(selector))
        throw UsageError("--stage " + selector + ": " +
                         (plan.problem == ProblemKind::ticket
                              ? std::string("the ticket table has no library row")
                              : std::string("--op ") + to_string(plan.op) +
                                    " has no library row (cub::DeviceHistogram counts: it has no weights)"));
  if (plan.analyze && given("--format")) {
    const std::string format = cli.option("--format")->as<std::string>();
    if (format != "table" && format != "json")
      throw UsageError("--format " + format + ": --analyze prints table or json");
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

Plan make_plan(ChapterCli& cli, const ChapterOptions& options) {
  Plan plan = plan_for(cli, options);
  const auto given = [&cli](const char* name) { return cli.app().get_option(name)->count() > 0; };
  const std::string n_text = "--n " + format_count(cli.options().n);
  if (given("--n")) plan.sizes = n_text;
  if (given("--bins"))
    plan.sizes += (plan.sizes.empty() ? "" : " ") + std::string("--bins ") + std::to_string(plan.bins);
  if (plan.sizes.empty()) plan.sizes = "the default " + n_text;
  return plan;
}

namespace {

/// Bytes of one value of the plan's widest operation (0 for a count).
double value_bytes(const Plan& plan) {
  const std::vector<OpKind> ops = plan.surface ? plan.surface_ops : std::vector<OpKind>{plan.op};
  double widest = 0.0;
  for (OpKind op : ops) widest = std::max(widest, op == OpKind::double_cas ? 8.0 : op == OpKind::float_add ? 4.0 : 0.0);
  return widest;
}

}  // namespace

double host_bytes(const Plan& plan, std::uint64_t n) {
  const double elements = static_cast<double>(n);
  if (plan.problem == ProblemKind::ticket)
    return 4.0 * elements     // the values
           + 8.0 * elements   // the kept values, sorted, and their rerun (a vector grown by push_back)
           + 4.0 * elements;  // the output downloaded by the check
  const double bins = static_cast<double>(plan.bins);
  return (sizeof(Key) + value_bytes(plan)) * elements  // keys and values
         + 2.0 * 24.0 * bins                           // the reference (sum, magnitude, count) and its rerun
         + 8.0 * bins                                  // zipf's cumulative weights
         + 16.0 * bins;                                // the bins downloaded by the check, and what it compares to
}

double device_bytes(const Plan& plan, std::uint64_t n) {
  const double elements = static_cast<double>(n);
  if (plan.problem == ProblemKind::ticket) return 8.0 * elements;
  const double bin_bytes = value_bytes(plan) == 8.0 ? 8.0 : 4.0;
  return (sizeof(Key) + value_bytes(plan)) * elements + bin_bytes * static_cast<double>(plan.bins);
}

double analysis_host_bytes(const Plan& plan, std::uint64_t n) {
  return static_cast<double>(sizeof(Key)) * static_cast<double>(std::min(n, kMaxAnalyzedKeys)) +
         8.0 * static_cast<double>(plan.bins);
}

}  // namespace stepwise::atomics
