#include "options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "host/sizes.hpp"

namespace stepwise::join {

ChapterInfo chapter_info() {
  ChapterInfo info;
  info.id = "08";
  info.name = "join";
  info.title = "relational joins on sorted tables: sorted search plus load-balancing search, inner to outer";
  info.default_n = kDefaultRows;
  info.min_n = 0;
  info.reference_lesson = "a sequential sort-merge join: one walk over both tables";
  return info;
}

double parse_duplication(const std::string& text) {
  const std::size_t point = text.find('.');
  const std::string whole = text.substr(0, point);
  const std::string fraction = point == std::string::npos ? "" : text.substr(point + 1);
  const auto digits = [](const std::string& part) {
    return !part.empty() && part.size() <= 12 && part.find_first_not_of("0123456789") == std::string::npos;
  };
  const bool decimal = digits(whole) && (point == std::string::npos || digits(fraction));
  const double value = decimal ? std::stod(text) : 0.0;
  if (!decimal || value < 1.0 || value > 1e9)
    throw std::invalid_argument("'" + text + "' is not a duplication factor: a decimal number from 1 to 10^9");
  return value;
}

void add_chapter_options(ChapterCli& cli, Plan& plan) {
  CLI::App& app = cli.app();
  CLI::Option* join =
      app.add_option_function<std::string>(
             "--join",
             [&plan](const std::string& text) {
               plan.kind = parse_join(text);
               plan.join_typed = "--join " + text;
             },
             "The join: inner (matches only), left (and A's unmatched rows), right (and B's), outer (both)")
          ->default_str("inner")
          ->check(parsed_by([](const std::string& text) { parse_join(text); }, "inner|left|right|outer"));
  CLI::Option* nb = add_count_option(app, "--nb", plan.nb, "B's rows (default: --n, A's rows)");
  CLI::Option* dup =
      app.add_option_function<std::string>(
             "--dup",
             [&plan](const std::string& text) {
               plan.duplication = parse_duplication(text);
               plan.dup_typed = "--dup " + text;
             },
             "How often each key appears in B on average (both tables draw from |B| / dup keys): each A row "
             "matches about dup B rows")
          ->default_str("1")
          ->check(parsed_by([](const std::string& text) { parse_duplication(text); }, "D"));
  for (CLI::Option* option : {join, nb, dup}) option->excludes(cli.option("--analyze"));
}

namespace {

/// The distinct keys both tables draw from: max(1, round(|B| / dup)) (make_input's).
double key_count(const Plan& plan) {
  return std::max(1.0, std::round(static_cast<double>(plan.b_rows) / plan.duplication));
}

}  // namespace

void validate_plan(Plan& plan, const CommonOptions& options) {
  const CountOption n{options.n_given, options.n_text, options.n};  // --n as typed
  plan.a_rows = n.value;
  plan.b_rows = plan.nb.given ? plan.nb.value : n.value;
  std::string typed_options = typed("--n", n);
  for (const std::string& option : {typed("--nb", plan.nb), plan.dup_typed, plan.join_typed})
    if (!option.empty()) typed_options += (typed_options.empty() ? "" : " ") + option;
  plan.size_options = typed_options.empty() ? "the default sizes (" + format_count(plan.a_rows) + " x " +
                                                  format_count(plan.b_rows) + " rows)"
                                            : typed_options;
  const auto refuse = [](const std::string& source, const std::string& what) {
    throw UsageError(source + ": " + what + ", above 2^31 - 1 (int32 row indices)");
  };
  if (n.value > kMaxRows) refuse(typed("--n", n), "A has " + format_count(n.value) + " rows");
  if (plan.nb.given && plan.nb.value > kMaxRows)
    refuse(typed("--nb", plan.nb), "B has " + format_count(plan.nb.value) + " rows");
  if (plan.a_rows + plan.b_rows > kMaxRows) {
    const std::string source =
        plan.nb.given
            ? (n.given ? typed("--n", n) + " " : "the default --n " + n.text + " and ") + typed("--nb", plan.nb)
            : typed("--n", n) + " (--nb defaults to --n)";
    refuse(source, "A and B hold " + format_count(plan.a_rows + plan.b_rows) + " rows together");
  }
  // The join's rows are known once the input is drawn; one far above the limit is refused now.
  const double rows = expected_rows(plan);
  if (rows > 1.01 * static_cast<double>(kMaxRows))
    throw UsageError(plan.size_options + ": the " + to_string(plan.kind) + " join would have about " +
                     format_count(static_cast<std::uint64_t>(rows)) +
                     " rows, above 2^31 - 1 (int32 row indices): lower --dup or the sizes");
}

double expected_rows(const Plan& plan) {
  const double a = static_cast<double>(plan.a_rows), b = static_cast<double>(plan.b_rows);
  const double keys = key_count(plan);
  const double missed = 1.0 - 1.0 / keys;  // the chance that one draw misses a given key
  double rows = a * b / keys;
  if (keeps_unmatched_a(plan.kind)) rows += a * std::pow(missed, b);
  if (keeps_unmatched_b(plan.kind)) rows += b * std::pow(missed, a);
  return rows;
}

double host_bytes_needed(const Plan& plan, double rows) {
  const double keys = 4.0 * static_cast<double>(plan.a_rows + plan.b_rows);
  return keys + 4.0 * key_count(plan) + 3.0 * 8.0 * rows;
}

double device_bytes_needed(const Plan& plan, double rows) {
  const double a = static_cast<double>(plan.a_rows), b = static_cast<double>(plan.b_rows);
  return 4.0 * (a + b) + 12.0 * rows + 20.0 * a + 9.0 * b;
}

std::string describe_input(const Plan& plan) {
  char dup[32];
  std::snprintf(dup, sizeof dup, "%g", plan.duplication);
  return std::string(to_string(plan.kind)) + " join, " + format_count(plan.a_rows) + " x " + format_count(plan.b_rows) +
         " rows, dup " + dup;
}

}  // namespace stepwise::join
