// Chapter 06's spec: its options bound to the plan, the table of the plan's form (--flags picks
// the library row), --analyze and the run.
#include "chapter.hpp"

#include <cstdint>
#include <map>
#include <string>

#include "analysis.hpp"
#include "compaction.hpp"
#include "host/host_memory.hpp"
#include "host/mode_options.hpp"
#include "host/sizes.hpp"
#include "problems.hpp"

namespace stepwise::compaction {
namespace {

Form form_of(const Plan& plan) { return plan.by_flags ? Form::flags : Form::predicate; }

/// The rows of @p plan's table as the host-only code reads them (the int32 table: the key type
/// changes no row's name, shape or traits).
std::vector<SelectRow> rows_of(const Plan& plan) { return facts_of(select_stages<std::int32_t>(form_of(plan))); }

/// Input bytes per element: the key, and the flag and the value where there are.
double input_bytes(const Plan& plan) { return 4.0 + (plan.by_flags ? 1.0 : 0.0) + (plan.payload ? 4.0 : 0.0); }

void add_options(ChapterCli& cli, Plan& plan) {
  CLI::App& app = cli.app();
  CLI::Option* type =
      app.add_option_function<std::string>(
             "--type",
             [&plan](const std::string& text) { plan.type = text == "float32" ? KeyType::float32 : KeyType::int32; },
             "Key type: int32 or float32")
          ->default_str("int32")
          ->check(CLI::IsMember({"int32", "float32"}));
  app.add_option_function<std::string>(
         "--selectivity", [&plan](const std::string& text) { plan.selectivity = parse_selectivity(text); },
         "The share of elements kept: a percentage (1%, 50%, 99%) or a fraction in [0, 1]")
      ->default_str("50%")
      ->check(parsed_by([](const std::string& text) { parse_selectivity(text); }, "P"));
  app.add_option_function<std::string>(
         "--pattern", [&plan](const std::string& text) { plan.pattern = parse_pattern(text); },
         "Where the kept elements lie: random (each one drawn alone) or runs:R (runs of R elements kept or "
         "dropped together)")
      ->default_str("random")
      ->check(parsed_by([](const std::string& text) { parse_pattern(text); }, "random|runs:R"));
  cli.add_flag("--flags", plan.by_flags,
               "Keep by a flag byte per element (DeviceSelect::Flagged) instead of the predicate key < 0 "
               "(DeviceSelect::If)");
  cli.add_flag("--payload", plan.payload, "Each key carries an int32 value, kept with it");
  CLI::Option* first_poll =
      app.add_option_function<int>(
             "--first-poll-ns", [&plan](int ns) { plan.first_poll_ns = static_cast<unsigned>(ns); },
             "Stages 6 and 7: how long a tile's look-back waits after publishing its count before its first poll "
             "(0: at once; default: each stage's tuned value, 1245 for stage 6, for stage 7 1245 up to 2^22 elements "
             "and 2600 above)")
          ->transform(decimal_in(0, 100000));
  CLI::Option* speculative_load = cli.add_flag(
      "--speculative-load", plan.speculative_load,
      "Stage 7: load tile blockIdx.x while the ticket is drawn (chapter 02's guess), instead of drawing the ticket "
      "first; a wrong guess reloads the tile");
  for (CLI::Option* option : {type, first_poll, speculative_load}) cli.option("--analyze")->excludes(option);
}

std::string print_analysis(const Plan& plan, const CommonOptions& options) {
  return options.format == Format::json ? analyze_json(plan, options.n, options.seed, rows_of(plan))
                                        : analyze(plan, options.n, options.seed, rows_of(plan));
}

template <class K>
int run_table(Session& session, const Plan& plan) {
  const std::size_t n = session.options().n;
  session.require_device_bytes(static_cast<double>(n) * (input_bytes(plan) + 4.0 + (plan.payload ? 4.0 : 0.0)) +
                               static_cast<double>(workspace_bytes<K>(n, plan.payload)));
  SelectProblem<K> problem(n, plan, session.options().seed);
  session.note(format_count(n) + " " + to_string(plan.type) + " keys, " + describe_input(plan) + ": " +
               std::to_string(problem.reference().keys.size()) + " kept");
  session.note(order_note(rows_of(plan)));
  return session.run(select_stages<K>(form_of(plan)), problem);
}

}  // namespace

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = [](const Plan&) {
    ChapterInfo info;
    info.id = "06";
    info.name = "compaction";
    info.title = "stream compaction: from one atomic per element to a single ordered pass, against cub::DeviceSelect";
    info.default_n = kDefaultN;
    info.min_n = 1;
    info.reference_lesson = "a sequential filter: the kept elements in input order";
    return info;
  };
  spec.add_options = add_options;
  spec.stages = [](const Plan& plan) { return describe(select_stages<std::int32_t>(form_of(plan))); };
  spec.require_host_memory = [](const Plan& plan, const CommonOptions& options) {
    require_host_bytes(host_bytes(plan, options.n), n_as_given(options));
  };
  spec.analyze = {
      "Print what each stage costs on this input (atomics, passes over the input, launches, bytes; counted on the "
      "first 2^26 elements at most), as a table or (--format json) with the packing and look-back examples that "
      "tools/plot draws; needs no GPU",
      {"--n", "--seed", "--format"},
      {Format::table, Format::json},
      print_analysis};
  spec.run = [](Session& session, const Plan& plan) {
    return plan.type == KeyType::float32 ? run_table<float>(session, plan) : run_table<std::int32_t>(session, plan);
  };
  spec.problems = {
      {"if 1%", {"--type", "int32", "--selectivity", "1%"}},
      {"if 50%", {"--type", "int32", "--selectivity", "50%"}},
      {"if 99%", {"--type", "int32", "--selectivity", "99%"}},
      {"flagged 1%", {"--type", "int32", "--flags", "--selectivity", "1%"}},
      {"flagged 50%", {"--type", "int32", "--flags", "--selectivity", "50%"}},
      {"flagged 99%", {"--type", "int32", "--flags", "--selectivity", "99%"}},
  };
  return spec;
}

}  // namespace stepwise::compaction
