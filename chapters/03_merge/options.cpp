#include "options.hpp"

#include <stdexcept>

#include "sizes.hpp"

namespace stepwise::merge {
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

bool has_option(const std::vector<std::string>& arguments, const std::string& name) {
  for (const std::string& argument : arguments)
    if (argument == name || argument.rfind(name + "=", 0) == 0) return true;
  return false;
}

/// The default proportion |A| : |B|.
Sizes ratio(ProblemKind problem) {
  switch (problem) {
    case ProblemKind::search:
      return {1, 4};
    case ProblemKind::lbs:
      return {1, 7};
    case ProblemKind::merge:
      break;
  }
  return {1, 1};
}

}  // namespace

const char* to_string(ProblemKind problem) {
  switch (problem) {
    case ProblemKind::search:
      return "search";
    case ProblemKind::lbs:
      return "lbs";
    case ProblemKind::merge:
      break;
  }
  return "merge";
}

ProblemKind problem_in_arguments(const std::vector<std::string>& arguments) {
  const std::string value = value_of(arguments, "--problem");
  if (value == "search") return ProblemKind::search;
  if (value == "lbs") return ProblemKind::lbs;
  return ProblemKind::merge;
}

Sizes default_sizes(ProblemKind problem) {
  switch (problem) {
    case ProblemKind::search:
      return {std::uint64_t{1} << 24, std::uint64_t{1} << 26};
    case ProblemKind::lbs:
      return {std::uint64_t{1} << 24, std::uint64_t{7} << 24};
    case ProblemKind::merge:
      break;
  }
  return {std::uint64_t{1} << 27, std::uint64_t{1} << 27};
}

ChapterInfo chapter_info(ProblemKind problem) {
  const Sizes sizes = default_sizes(problem);
  ChapterInfo info;
  info.id = "03";
  info.name = "merge";
  info.default_n = sizes.a + sizes.b;
  info.min_n = 0;
  switch (problem) {
    case ProblemKind::search:
      info.title = "sorted search: a binary search per needle to Merge Path, against thrust::lower_bound";
      info.reference_lesson = "the talk's sequential sorted search: one walk of needles and haystack together";
      break;
    case ProblemKind::lbs:
      info.title = "load-balancing search (CSR -> COO): a binary search per item to Merge Path, against Thrust";
      info.reference_lesson = "the sequential load-balancing search: one walk of items and offsets together";
      break;
    case ProblemKind::merge:
      info.title = "merge: per-element binary search to Merge Path, against CUB and Thrust";
      info.reference_lesson = "the talk's sequential merge (ties take A first, like std::merge)";
      break;
  }
  return info;
}

Sizes split_sizes(ProblemKind problem, std::uint64_t n) {
  const Sizes parts = ratio(problem);
  const std::uint64_t a = n / (parts.a + parts.b) * parts.a + n % (parts.a + parts.b) * parts.a / (parts.a + parts.b);
  return {a, n - a};
}

std::vector<std::string> with_total_count(const std::vector<std::string>& arguments) {
  std::vector<std::string> result = arguments;
  if (has_option(arguments, "--n") || !has_option(arguments, "--na") || !has_option(arguments, "--nb")) return result;
  try {
    const std::uint64_t a = parse_count(value_of(arguments, "--na"));
    const std::uint64_t b = parse_count(value_of(arguments, "--nb"));
    if (a + b >= a) result.insert(result.end(), {"--n", format_count(a + b)});
  } catch (const std::invalid_argument&) {
    // A bad --na or --nb: the parser names it.
  }
  return result;
}

Sizes resolve_sizes(ProblemKind problem, std::uint64_t n, const std::string& a_text, const std::string& b_text) {
  if (a_text.empty() && b_text.empty()) return split_sizes(problem, n);
  const auto count = [](const std::string& text, const char* option) {
    try {
      return parse_count(text);
    } catch (const std::invalid_argument& error) {
      throw UsageError(std::string(option) + ": " + error.what());
    }
  };
  if (!a_text.empty() && !b_text.empty()) {
    const Sizes sizes{count(a_text, "--na"), count(b_text, "--nb")};
    if (sizes.a + sizes.b != n)
      throw UsageError("--n " + format_count(n) + " is not --na + --nb (" + format_count(sizes.a + sizes.b) +
                       "): give --n = |A| + |B|, or leave it out");
    return sizes;
  }
  const bool a_given = !a_text.empty();
  const std::uint64_t part = a_given ? count(a_text, "--na") : count(b_text, "--nb");
  if (part > n)
    throw UsageError(std::string(a_given ? "--na " : "--nb ") + format_count(part) + " is above --n " +
                     format_count(n) + " (|A| + |B|)");
  return a_given ? Sizes{part, n - part} : Sizes{n - part, part};
}

void add_chapter_options(ChapterCli& cli, ChapterOptions& options) {
  CLI::App& app = cli.app();
  app.add_option("--problem", options.problem,
                 "merge (two sorted arrays into one), search (sorted needles in a sorted haystack) or lbs "
                 "(load-balancing search: CSR offsets to per-item object and rank)")
      ->capture_default_str()
      ->check(CLI::IsMember({"merge", "search", "lbs"}));
  app.add_option("--na", options.na,
                 "|A|: merge: A's keys; search: needles; lbs: objects (--n is |A| + |B|, split 1:1, 1:4, 1:7 unless "
                 "--na or --nb is given)")
      ->transform(parsed_by([](const std::string& text) { parse_count(text); }, "COUNT"));
  app.add_option("--nb", options.nb, "|B|: merge: B's keys; search: the haystack's keys; lbs: items")
      ->transform(parsed_by([](const std::string& text) { parse_count(text); }, "COUNT"));
  app.add_option("--distribution", options.distribution,
                 "Keys (lbs: object counts): uniform, duplicates, equal, disjoint (A below B) or interleaved")
      ->capture_default_str()
      ->check(CLI::IsMember(distribution_names()));
  app.add_option("--type", options.type, "Key type: int32 or int64 (lbs: int32 only)")
      ->capture_default_str()
      ->check(CLI::IsMember({"int32", "int64"}));
  cli.add_flag("--pairs", options.pairs, "Merge key-value pairs (int32 values; --problem merge only)");
  app.add_option("--bound", options.bound, "Sorted search: lower or upper bound of each needle (--problem search only)")
      ->capture_default_str()
      ->check(CLI::IsMember({"lower", "upper"}));
  CLI::Option* analyze =
      cli.add_flag("--analyze", options.analyze,
                   "Print the Merge Path of a small example and the work of each stage at these sizes; needs no GPU");
  for (const char* name : {"--stage", "--sweep", "--format", "--output", "--distribution"})
    analyze->excludes(cli.option(name));
  // The combinations are checked while parsing, so that --check-options (the tour's) refuses them too.
  cli.app().final_callback([&cli, &options] { check_chapter_options(cli, options); });
}

namespace {

/// The plan for @p options at --n = @p n (@p bound_given: --bound was on the command line).
Plan plan_for(const ChapterOptions& options, std::uint64_t n, bool bound_given) {
  Plan plan;
  plan.problem = problem_in_arguments({"--problem", options.problem});
  plan.distribution = parse_distribution(options.distribution);
  plan.wide_keys = options.type == "int64";
  plan.pairs = options.pairs;
  plan.bounds = options.bound == "upper" ? Bounds::upper : Bounds::lower;
  plan.analyze = options.analyze;
  if (plan.pairs && plan.problem != ProblemKind::merge)
    throw UsageError("--pairs: only --problem merge has values (this is --problem " +
                     std::string(to_string(plan.problem)) + ")");
  if (bound_given && plan.problem != ProblemKind::search)
    throw UsageError("--bound: only --problem search has bounds (this is --problem " +
                     std::string(to_string(plan.problem)) + ")");
  if (plan.wide_keys && plan.problem == ProblemKind::lbs)
    throw UsageError("--type int64: --problem lbs has int32 offsets only");
  plan.sizes = resolve_sizes(plan.problem, n, options.na, options.nb);
  if (plan.problem == ProblemKind::search && plan.sizes.b > kMaxIndexed)
    throw UsageError("--nb " + format_count(plan.sizes.b) + ": the haystack has at most 2^31 - 1 keys (int32 bounds)");
  if (plan.problem == ProblemKind::lbs) {
    if (plan.sizes.a > kMaxIndexed || plan.sizes.b > kMaxIndexed)
      throw UsageError("--na, --nb: at most 2^31 - 1 objects and items (int32 offsets)");
    if (plan.sizes.b > 0 && plan.sizes.a == 0) throw UsageError("--na 0: items need at least one object");
  }
  return plan;
}

}  // namespace

void check_chapter_options(ChapterCli& cli, const ChapterOptions& options) {
  std::uint64_t n = cli.chapter().default_n;
  if (cli.option("--n")->count() > 0) {
    try {
      n = parse_count(cli.option("--n")->as<std::string>());
    } catch (const std::invalid_argument&) {
      return;  // the common options' check names a bad --n
    }
  }
  try {
    plan_for(options, n, cli.option("--bound")->count() > 0);
  } catch (const UsageError& error) {
    throw CLI::ValidationError(error.what());
  }
}

Plan make_plan(ChapterCli& cli, const ChapterOptions& options) {
  return plan_for(options, cli.options().n, cli.option("--bound")->count() > 0);
}

}  // namespace stepwise::merge
