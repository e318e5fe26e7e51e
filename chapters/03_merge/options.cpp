#include "options.hpp"

#include <initializer_list>
#include <stdexcept>
#include <tuple>

#include "host/sizes.hpp"

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
  std::uint64_t a = n / (parts.a + parts.b) * parts.a + n % (parts.a + parts.b) * parts.a / (parts.a + parts.b);
  if (problem == ProblemKind::lbs && n > 0 && a == 0) a = 1;  // items need an object: n = 1 is one object
  return {a, n - a};
}

namespace {

/// The given options among @p parts, joined by spaces.
std::string joined(std::initializer_list<std::string> parts) {
  std::string text;
  for (const std::string& part : parts)
    if (!part.empty()) text += (text.empty() ? "" : " ") + part;
  return text;
}

/// Refuses a part above what the problem can index (search: the haystack; lbs: objects and
/// items, int32 indices). @p source names what gave it.
void require_indexed_part(ProblemKind problem, bool is_a, std::uint64_t value, const std::string& source) {
  const bool limited = problem == ProblemKind::lbs || (problem == ProblemKind::search && !is_a);
  if (!limited || value <= kMaxIndexed) return;
  const std::string count = format_count(value);
  const std::string what = problem == ProblemKind::search ? "a haystack of " + count + " keys"
                           : is_a                         ? count + " objects"
                                                          : count + " items";
  throw UsageError(source + ": " + what + ", above 2^31 - 1 (--problem " + to_string(problem) +
                   " writes int32 indices)");
}

}  // namespace

Sizes resolve_sizes(ProblemKind problem, const CountOption& n, const CountOption& a, const CountOption& b) {
  // What the user typed, checked first, each alone.
  for (const auto& [option, name, is_a] :
       {std::tuple{&a, "--na", true}, std::tuple{&b, "--nb", false}, std::tuple{&n, "--n", false}}) {
    if (!option->given) continue;
    if (option->value > kMaxTotal) throw UsageError(typed(name, *option) + ": above 2^40 elements (--n is |A| + |B|)");
    if (option != &n) require_indexed_part(problem, is_a, option->value, typed(name, *option));
  }
  const std::string given = joined({typed("--n", n), typed("--na", a), typed("--nb", b)});
  Sizes sizes;
  if (a.given && b.given) {
    sizes = {a.value, b.value};
    if (sizes.a + sizes.b > kMaxTotal)
      throw UsageError(given + ": |A| + |B| = " + format_count(sizes.a + sizes.b) + " is above 2^40 elements");
    if (n.given && n.value != sizes.a + sizes.b)
      throw UsageError(given + ": --n is not --na + --nb (" + format_count(sizes.a + sizes.b) +
                       "): give --n = |A| + |B|, or leave it out");
  } else if (a.given || b.given) {
    const CountOption& part = a.given ? a : b;
    if (part.value > n.value)
      throw UsageError(given + ": " + (a.given ? "|A|" : "|B|") + " is above |A| + |B| = " +
                       (n.given ? "--n" : "the default " + format_count(n.value)) + ": give " +
                       (n.given   ? "a larger --n"
                        : a.given ? "--nb or --n too"
                                  : "--na or --n too"));
    sizes = a.given ? Sizes{part.value, n.value - part.value} : Sizes{n.value - part.value, part.value};
  } else {
    sizes = split_sizes(problem, n.value);
  }
  // What the sizes derived from them must satisfy.
  const std::string source = given.empty() ? "the default sizes" : given;
  require_indexed_part(problem, true, sizes.a, source + " (|A|)");
  require_indexed_part(problem, false, sizes.b, source + " (|B|)");
  if (problem == ProblemKind::lbs && sizes.b > 0 && sizes.a == 0)
    throw UsageError(source + ": " + format_count(sizes.b) + " items and no object: items need at least one object");
  return sizes;
}

std::string size_options_text(const CountOption& n, const CountOption& a, const CountOption& b, std::uint64_t total) {
  const std::string given = joined({typed("--n", n), typed("--na", a), typed("--nb", b)});
  return given.empty() ? "the default sizes (|A| + |B| = " + format_count(total) + ")" : given;
}

double host_bytes_needed(const Plan& plan) {
  const double a = static_cast<double>(plan.sizes.a), b = static_cast<double>(plan.sizes.b);
  switch (plan.problem) {
    case ProblemKind::search: {  // keys; the bounds: reference, its timed copy, the output read back
      const double key = plan.wide_keys ? 8.0 : 4.0;
      return key * (a + b) + 3.0 * 4.0 * a;
    }
    case ProblemKind::lbs:  // offsets and their gaps while drawn; objects and ranks: reference, copy, read back
      return 12.0 * a + 3.0 * 8.0 * b;
    case ProblemKind::merge:
      break;
  }
  // Keys (and values) of the inputs, the reference, its timed copy and the output read back.
  const double element = (plan.wide_keys ? 8.0 : 4.0) + (plan.pairs ? 4.0 : 0.0);
  return 4.0 * element * (a + b);
}

double device_bytes_needed(const Plan& plan) {
  const double a = static_cast<double>(plan.sizes.a), b = static_cast<double>(plan.sizes.b);
  const double partitions = static_cast<double>(partition_workspace_bytes(plan.sizes.a + plan.sizes.b));
  const double key = plan.wide_keys ? 8.0 : 4.0;
  switch (plan.problem) {
    case ProblemKind::search:  // needles, haystack, one int32 bound per needle
      return key * (a + b) + 4.0 * a + partitions;
    case ProblemKind::lbs:  // offsets, an object and a rank per item
      return 4.0 * a + 8.0 * b + partitions;
    case ProblemKind::merge:
      break;
  }
  const double element = key + (plan.pairs ? 4.0 : 0.0);
  return 2.0 * element * (a + b) + partitions;  // A and B, the merge
}

void add_chapter_options(ChapterCli& cli, ChapterOptions& options) {
  CLI::App& app = cli.app();
  app.add_option("--problem", options.problem,
                 "merge (two sorted arrays into one), search (sorted needles in a sorted haystack) or lbs "
                 "(load-balancing search: CSR offsets to per-item object and rank)")
      ->capture_default_str()
      ->check(CLI::IsMember({"merge", "search", "lbs"}));
  add_count_option(app, "--na", options.na,
                   "|A|: merge: A's keys; search: needles; lbs: objects (--n is |A| + |B|, split 1:1, 1:4, 1:7 unless "
                   "--na or --nb is given)");
  add_count_option(app, "--nb", options.nb, "|B|: merge: B's keys; search: the haystack's keys; lbs: items");
  CLI::Option* distribution =
      app.add_option("--distribution", options.distribution,
                     "Keys (lbs: object counts): uniform, duplicates, equal, disjoint (A below B) or interleaved")
          ->capture_default_str()
          ->check(CLI::IsMember(distribution_names()));
  app.add_option("--type", options.type, "Key type: int32 or int64 (lbs: int32 only)")
      ->capture_default_str()
      ->check(CLI::IsMember({"int32", "int64"}));
  cli.add_flag("--pairs", options.pairs, "Merge key-value pairs (int32 values; --problem merge only)");
  CLI::Option* bound = app.add_option("--bound", options.bound,
                                      "Sorted search: lower or upper bound of each needle (--problem search only)")
                           ->capture_default_str()
                           ->check(CLI::IsMember({"lower", "upper"}));
  CLI::Option* analyze = cli.add_analyze_flag(
      options.analyze,
      "Print the Merge Path of a small example and the work of each stage at these sizes (--n, --na, --nb, "
      "--type, --pairs), as text or (--format json) for tools/plot; needs no GPU",
      {"--n", "--format"});
  analyze->excludes(distribution)->excludes(bound);
  // The combinations are checked while parsing, so that --check-options (the tour's) refuses them too.
  cli.app().final_callback([&cli, &options] { check_chapter_options(cli, options); });
}

namespace {

/// The plan for @p options at --n = @p n (given or the default; @p bound_given: --bound was on
/// the command line).
Plan plan_for(const ChapterOptions& options, const CountOption& n, bool bound_given) {
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
  plan.size_options = size_options_text(n, options.na, options.nb, plan.sizes.a + plan.sizes.b);
  return plan;
}

}  // namespace

void check_chapter_options(ChapterCli& cli, const ChapterOptions& options) {
  CountOption n;
  try {
    n = typed_n(cli);
  } catch (const std::invalid_argument&) {
    return;  // the common options' check names a bad --n
  }
  if (n.value > kMaxTotal) return;  // and one above its limit
  try {
    plan_for(options, n, cli.option("--bound")->count() > 0);
  } catch (const UsageError& error) {
    throw CLI::ValidationError(error.what());
  }
}

Plan make_plan(ChapterCli& cli, const ChapterOptions& options) {
  return plan_for(options, typed_n(cli), cli.option("--bound")->count() > 0);
}

}  // namespace stepwise::merge
