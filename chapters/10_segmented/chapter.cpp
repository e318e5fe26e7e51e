// Chapter 10's spec: its options bound to the plan, the table of the plan's problem (registry.hpp),
// --analyze and the run. Nothing here names a problem: each registers itself in registry.cpp.
#include "chapter.hpp"

#include <map>
#include <string>
#include <vector>

#include "host/host_memory.hpp"
#include "host/mode_options.hpp"
#include "host/sizes.hpp"
#include "registry.hpp"

namespace stepwise::segmented {
namespace {

void add_options(ChapterCli& cli, Plan& plan) {
  CLI::App& app = cli.app();
  std::string problems = "Which problem: ";
  for (const SegmentedProblem& problem : segmented_problems())
    problems += problem.name + " (" + problem.summary + "); ";
  problems.resize(problems.size() - 2);
  app.add_option("--problem", plan.problem, problems)
      ->default_str(plan.problem)
      ->check(parsed_by([](const std::string& text) { find_problem(text); }, problem_names()));
  app.add_option("--type", plan.type, "Value type: int32 (sums wrap mod 2^32, checked exactly), float32 or float64")
      ->transform(CLI::CheckedTransformer(std::map<std::string, ValueType>{
          {"int32", ValueType::int32}, {"float32", ValueType::float32}, {"float64", ValueType::float64}}))
      ->default_str("float32");
  app.add_option_function<std::string>(
         "--segments", [&plan](const std::string& text) { plan.segments = parse_segments(text); },
         "Segment lengths: uniform:L (uniform in [0, 2L], mean L), zipf:S (a power law of exponent S in [1.1, 4]), "
         "empty:P (P percent empty, first and last included; the others 1 to 31), huge (one segment holds half the "
         "items), ones (every segment one item)")
      ->default_str(to_string(plan.segments))
      ->check(parsed_by([](const std::string& text) { parse_segments(text); }, "uniform:L|zipf:S|empty:P|huge|ones"));
  for (const SegmentedProblem& problem : segmented_problems())
    if (problem.add_options != nullptr) problem.add_options(cli, plan);
}

/// The checks no single option makes: --n against the largest input, then the problem's own.
void validate(Plan& plan, const CommonOptions& options) {
  if (options.n > kMaxN) throw UsageError(n_as_given(options) + ": at most 2^32 - 1 items (segment ids are uint32)");
  const SegmentedProblem& problem = find_problem(plan.problem);
  for (const SegmentedProblem& other : segmented_problems())
    if (other.name != problem.name && other.validate_unpicked != nullptr) other.validate_unpicked(plan);
  if (problem.validate != nullptr) problem.validate(plan, options);
}

}  // namespace

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = [](const Plan&) {
    ChapterInfo info;
    info.id = "10";
    info.name = "segmented";
    info.title =
        "segmented primitives: segmented reduce and scan from a thread per segment to Merge Path and look-back, "
        "against CUB";
    info.default_n = kDefaultN;
    info.min_n = 1;
    info.reference_lesson = "a sequential loop over the segments (in double for floats)";
    return info;
  };
  spec.add_options = add_options;
  spec.validate = validate;
  spec.stages = [](const Plan& plan) { return find_problem(plan.problem).stages(plan); };
  spec.require_host_memory = [](const Plan& plan, const CommonOptions& options) {
    require_host_bytes(find_problem(plan.problem).host_bytes(plan, options.n), n_as_given(options));
  };
  spec.analyze = {
      "Print each stage's idle lanes and work per thread for --n, --segments and --seed (setop: its searches and "
      "balanced cuts for --op and --sets), as text or (--format json, with the worked examples tools/plot draws) "
      "as JSON; needs no GPU",
      {"--n", "--seed", "--format"},
      {Format::table, Format::json},
      [](const Plan& plan, const CommonOptions& options) { return find_problem(plan.problem).analyze(plan, options); }};
  spec.run = [](Session& session, const Plan& plan) { return find_problem(plan.problem).run(session, plan); };
  for (const SegmentedProblem& problem : segmented_problems())
    spec.problems.insert(spec.problems.end(), problem.sweep.begin(), problem.sweep.end());
  return spec;
}

}  // namespace stepwise::segmented
