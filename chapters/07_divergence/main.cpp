// Chapter 07: branch divergence and thread-data remapping. Elements whose paths differ share a
// warp and serialize; from the divergent kernel and the best kernel that moves nothing, to
// remaps by reference redirection and by data transformation, partial, pipelined and
// controlled. The stages are in divergence.cpp's tables, one file each under stages/; --analyze
// needs no GPU.
#include <iostream>
#include <string>

#include "analysis.hpp"
#include "harness.hpp"
#include "options.hpp"
#include "problems.hpp"

int main(int argc, char** argv) {
  using namespace stepwise;
  using namespace stepwise::divergence;
  return run_main(argv[0], [&] {
    ChapterOptions chapter_options;
    Plan listed;  // --list shows the table of the workload asked for
    for (int i = 1; i + 1 < argc; ++i)
      if (std::string(argv[i]) == "--workload" && std::string(argv[i + 1]) == "mutation")
        listed.workload = WorkloadKind::mutation;
    ChapterCli cli(chapter_info(), stage_infos(listed));
    add_chapter_options(cli, chapter_options);
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    const Plan plan = make_plan(cli, chapter_options, cli.options().n);
    if (plan.analyze) {
      std::cout << analyze(plan, cli.options().n, cli.options().seed);
      return static_cast<int>(kExitOk);
    }
    Session session(cli);
    return run_plan(session, plan);
  });
}
