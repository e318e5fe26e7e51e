// Chapter 06: stream compaction. Keep the elements that pass a test, from one atomic per kept
// element to a single ordered pass with decoupled look-back, against cub::DeviceSelect::If and
// ::Flagged. The stages are in compaction.cpp's table, one file each under stages/; --analyze
// needs no GPU.
#include <iostream>

#include "analysis.hpp"
#include "harness.hpp"
#include "options.hpp"
#include "problems.hpp"

int main(int argc, char** argv) {
  using namespace stepwise;
  using namespace stepwise::compaction;
  return run_main(argv[0], [&] {
    ChapterOptions chapter_options;
    bool by_flags = false;
    for (int i = 1; i < argc; ++i) by_flags = by_flags || std::string(argv[i]) == "--flags";
    Plan listed;
    listed.by_flags = by_flags;  // --list shows the library row of the form asked for
    ChapterCli cli(chapter_info(), stage_infos(listed));
    add_chapter_options(cli, chapter_options);
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    const Plan plan = make_plan(chapter_options);
    if (plan.analyze) {
      std::cout << analyze(plan, cli.options().n, cli.options().seed, cli.stages());
      return static_cast<int>(kExitOk);
    }
    Session session(cli);
    return run_plan(session, plan);
  });
}
