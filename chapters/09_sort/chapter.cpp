// Chapter 09's spec: its options bound to the plan, the table of the plan's problem, --analyze
// (analysis.cpp) and the run.
#include "chapter.hpp"

#include <map>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "host/host_memory.hpp"
#include "host/mode_options.hpp"
#include "host/sizes.hpp"
#include "problems.hpp"
#include "sort.hpp"

namespace stepwise::sort {
namespace {

/// The checks no single option makes: --digit-bits changes radix rows only.
void validate(Plan& plan, const CommonOptions&) {
  if (plan.problem == Algorithm::merge && plan.digit_bits != 0)
    throw UsageError("--digit-bits " + std::to_string(plan.digit_bits) + ": the merge table has no digits");
}

void add_options(ChapterCli& cli, Plan& plan) {
  CLI::App& app = cli.app();
  app.add_option("--problem", plan.problem, "Which sorts: radix (radix sorts, cub::DeviceRadixSort) or merge")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, Algorithm>{{"radix", Algorithm::radix}, {"merge", Algorithm::merge}}))
      ->default_str("radix");
  app.add_option("--key", plan.key, "Key type: uint32, int32, float32 or uint64")
      ->transform(CLI::CheckedTransformer(std::map<std::string, KeyType>{{"uint32", KeyType::uint32},
                                                                         {"int32", KeyType::int32},
                                                                         {"float32", KeyType::float32},
                                                                         {"uint64", KeyType::uint64}}))
      ->default_str("uint32");
  app.add_option_function<std::string>(
         "--input", [&plan](const std::string& text) { plan.input = parse_input(text); },
         "How the keys are drawn: uniform (random bits), entropy:K (the AND of K random words, K = 0..5), sorted, "
         "reversed, equal (one random key), few:D (D distinct keys)")
      ->default_str("uniform")
      ->check(parsed_by([](const std::string& text) { parse_input(text); }, "uniform|entropy:K|sorted|..."));
  CLI::Option* pairs = cli.add_flag("--pairs", plan.pairs, "Sort (key, int32 value) pairs instead of keys only");
  cli.option("--analyze")->excludes(pairs);
  app.add_option("--digit-bits", plan.digit_bits,
                 "Radix stages 2 and 3: the bits of a digit, 4 (16 digits, the default) or 8 (256 digits)")
      ->check(CLI::IsMember({4, 8}));
}

template <class K>
int run_table(Session& session, const Plan& plan) {
  const std::size_t n = session.options().n;
  session.require_device_bytes(2.0 * element_bytes(plan) * static_cast<double>(n) +
                               static_cast<double>(workspace_bytes<K>(n, plan.pairs)));
  SortProblem<K> problem(n, plan, session.options().seed);
  session.note(format_count(n) + " " + to_string(plan.key) + " keys" + (plan.pairs ? " + int32 values" : "") +
               ", input " + to_string(plan.input) + "; every row sorts stably by ordered_bits (keys.hpp)");
  return session.run(sort_stages<K>(plan.problem), problem);
}

}  // namespace

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = [](const Plan&) {
    ChapterInfo info;
    info.id = "09";
    info.name = "sort";
    info.title = "sorting: radix sorts from one bit per pass to Onesweep, and merge sorts, against CUB";
    info.default_n = kDefaultN;
    info.min_n = 1;
    info.reference_lesson = "a parallel stable sort of (ordered bits, position) on the host";
    return info;
  };
  spec.add_options = add_options;
  spec.validate = validate;
  spec.stages = [](const Plan& plan) {
    if (key_bytes(plan.key) == 8) return describe(sort_stages<std::uint64_t>(plan.problem));
    return describe(sort_stages<std::uint32_t>(plan.problem));
  };
  spec.require_host_memory = [](const Plan& plan, const CommonOptions& options) {
    require_host_bytes(host_bytes(plan, options.n), n_as_given(options));
  };
  spec.analyze = {
      "Print each stage's passes, launches and key bytes moved for --n and --key, the digit histogram of "
      "this input (--input, --seed), and a small example's passes, as text or (--format json) for "
      "tools/plot; needs no GPU",
      {"--n", "--seed", "--format"},
      {Format::table, Format::json},
      analysis};
  spec.run = [](Session& session, const Plan& plan) {
    switch (plan.key) {
      case KeyType::int32:
        return run_table<std::int32_t>(session, plan);
      case KeyType::float32:
        return run_table<float>(session, plan);
      case KeyType::uint64:
        return run_table<std::uint64_t>(session, plan);
      case KeyType::uint32:
        break;
    }
    return run_table<std::uint32_t>(session, plan);
  };
  spec.problems = {
      {"radix uint32", {"--problem", "radix", "--key", "uint32"}},
      {"radix pairs", {"--problem", "radix", "--key", "uint32", "--pairs"}},
      {"radix uint64", {"--problem", "radix", "--key", "uint64"}},
      {"merge uint32", {"--problem", "merge", "--key", "uint32"}},
  };
  return spec;
}

}  // namespace stepwise::sort
