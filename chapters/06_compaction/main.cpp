// Chapter 06: stream compaction. Keep the elements that pass a test, from one atomic per kept
// element to a single ordered pass with decoupled look-back, against cub::DeviceSelect::If and
// ::Flagged. The stages are in compaction.cpp's table, one file each under stages/; --analyze
// needs no GPU (--format json for the concept diagrams of tools/plot).
#include <cstdint>
#include <iostream>
#include <string>

#include "analysis.hpp"
#include "host/harness.hpp"
#include "host/host_memory.hpp"
#include "host/mode_options.hpp"
#include "options.hpp"
#include "problems.hpp"

int main(int argc, char** argv) {
  using namespace stepwise;
  using namespace stepwise::compaction;
  return run_main(argv[0], [&] {
    Plan listed;
    listed.by_flags = flags_in_arguments(argc, argv);  // --list shows the library row of the form asked for
    ChapterCli cli(chapter_info(), stage_infos(listed));
    ChapterOptions chapter_options;
    add_chapter_options(cli, chapter_options);
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    const Plan plan = make_plan(chapter_options);
    const std::uint64_t n = cli.options().n;
    if (plan.analyze) {
      const Format format = cli.options().format;
      if (format != Format::table && format != Format::json)
        throw UsageError(std::string("--format ") + to_string(format) + ": --analyze prints table or json");
      std::cout << (format == Format::json ? analyze_json(plan, n, cli.options().seed, cli.stages())
                                           : analyze(plan, n, cli.options().seed, cli.stages()));
      return static_cast<int>(kExitOk);
    }
    require_host_bytes(host_bytes(plan, n), n_as_given(cli));  // before the GPU opens: exit 2, not 77
    Session session(cli);
    return run_plan(session, plan);
  });
}
