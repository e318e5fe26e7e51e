#include "options.hpp"

#include <initializer_list>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "host/sizes.hpp"

namespace stepwise::merge {
namespace {

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

namespace {

/// Adds option @p name to @p app, one of @p choices by name, written into @p target as it is
/// parsed (the help shows the choices and the name of @p target's value as the default).
template <class T>
CLI::Option* add_choice(CLI::App& app, const std::string& name, T& target,
                        const std::vector<std::pair<std::string, T>>& choices, const std::string& help) {
  std::vector<std::string> names;
  std::string default_name;
  for (const auto& [choice, value] : choices) {
    names.push_back(choice);
    if (value == target) default_name = choice;
  }
  return app
      .add_option_function<std::string>(
          name,
          [&target, choices](const std::string& text) {
            for (const auto& [choice, value] : choices)
              if (choice == text) target = value;
          },
          help)
      ->default_str(default_name)
      ->check(CLI::IsMember(names));
}

}  // namespace

void add_options(ChapterCli& cli, Plan& plan) {
  CLI::App& app = cli.app();
  add_choice<ProblemKind>(app, "--problem", plan.problem,
                          {{"merge", ProblemKind::merge}, {"search", ProblemKind::search}, {"lbs", ProblemKind::lbs}},
                          "merge (two sorted arrays into one), search (sorted needles in a sorted haystack) or lbs "
                          "(load-balancing search: CSR offsets to per-item object and rank)");
  add_count_option(app, "--na", plan.na,
                   "|A|: merge: A's keys; search: needles; lbs: objects (--n is |A| + |B|, split 1:1, 1:4, 1:7 unless "
                   "--na or --nb is given)");
  add_count_option(app, "--nb", plan.nb, "|B|: merge: B's keys; search: the haystack's keys; lbs: items");
  std::vector<std::pair<std::string, Distribution>> distributions;
  for (const std::string& name : distribution_names()) distributions.emplace_back(name, parse_distribution(name));
  add_choice(app, "--distribution", plan.distribution, distributions,
             "Keys (lbs: object counts): uniform, duplicates, equal, disjoint (A below B) or interleaved")
      ->excludes(cli.option("--analyze"));
  add_choice<bool>(app, "--type", plan.wide_keys, {{"int32", false}, {"int64", true}},
                   "Key type: int32 or int64 (lbs: int32 only)");
  cli.add_flag("--pairs", plan.pairs, "Merge key-value pairs (int32 values; --problem merge only)");
  add_choice<Bounds>(app, "--bound", plan.bounds, {{"lower", Bounds::lower}, {"upper", Bounds::upper}},
                     "Sorted search: lower or upper bound of each needle (--problem search only)")
      ->each([&plan](const std::string&) { plan.bound_given = true; })
      ->excludes(cli.option("--analyze"));
}

void validate_plan(Plan& plan, const CommonOptions& options) {
  if (plan.pairs && plan.problem != ProblemKind::merge)
    throw UsageError("--pairs: only --problem merge has values (this is --problem " +
                     std::string(to_string(plan.problem)) + ")");
  if (plan.bound_given && plan.problem != ProblemKind::search)
    throw UsageError("--bound: only --problem search has bounds (this is --problem " +
                     std::string(to_string(plan.problem)) + ")");
  if (plan.wide_keys && plan.problem == ProblemKind::lbs)
    throw UsageError("--type int64: --problem lbs has int32 offsets only");
  const CountOption n{options.n_given, options.n_text, options.n};  // the common --n as typed
  plan.sizes = resolve_sizes(plan.problem, n, plan.na, plan.nb);
  plan.size_options = size_options_text(n, plan.na, plan.nb, plan.sizes.a + plan.sizes.b);
}

}  // namespace stepwise::merge
