#include "options.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "sizes.hpp"

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
  char* end = nullptr;
  const double value = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value) || value < 1.0 || value > 1e9)
    throw std::invalid_argument("'" + text + "' is not a duplication factor: a number from 1 to 10^9");
  return value;
}

void add_chapter_options(ChapterCli& cli, ChapterOptions& options) {
  CLI::App& app = cli.app();
  app.add_option("--join", options.join,
                 "The join: inner (matches only), left (and A's unmatched rows), right (and B's), outer (both)")
      ->capture_default_str()
      ->check(parsed_by([](const std::string& text) { parse_join(text); }, "inner|left|right|outer"));
  app.add_option("--nb", options.nb, "B's rows (default: --n, A's rows)")
      ->check(parsed_by([](const std::string& text) { parse_count(text); }, "COUNT"));
  app.add_option("--dup", options.duplication,
                 "How often each key appears in B on average (both tables draw from |B| / dup keys): each A row "
                 "matches about dup B rows")
      ->capture_default_str()
      ->check(parsed_by([](const std::string& text) { parse_duplication(text); }, "D"));
}

Plan make_plan(const ChapterOptions& options, std::uint64_t n) {
  Plan plan;
  plan.kind = parse_join(options.join);
  plan.a_rows = n;
  plan.b_rows = options.nb.empty() ? n : parse_count(options.nb);
  plan.duplication = parse_duplication(options.duplication);
  if (plan.a_rows > kMaxRows || plan.b_rows > kMaxRows || plan.a_rows + plan.b_rows > kMaxRows)
    throw UsageError("A and B hold " + format_count(plan.a_rows + plan.b_rows) +
                     " rows together, above 2^31 - 1 (int32 row indices)");
  return plan;
}

std::string describe_input(const Plan& plan) {
  char dup[32];
  std::snprintf(dup, sizeof dup, "%g", plan.duplication);
  return std::string(to_string(plan.kind)) + " join, " + format_count(plan.a_rows) + " x " + format_count(plan.b_rows) +
         " rows, dup " + dup;
}

}  // namespace stepwise::join
