// Chapter 03: merge, and the merge-like sorted search and load-balancing search. From one binary
// search per element to Merge Path, against CUB and Thrust on the same data. --problem picks the
// table (merge, search, lbs); the stages are in merge.cpp's tables, one file each under
// stages/; --analyze draws the Merge Path and counts each stage's work without a GPU (--format
// json for tools/plot's concept diagrams).
#include <iostream>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "host/harness.hpp"
#include "host/host_memory.hpp"
#include "options.hpp"
#include "problems.hpp"

int main(int argc, char** argv) {
  using namespace stepwise;
  using namespace stepwise::merge;
  return run_main(argv[0], [&] {
    // The table depends on --problem: it is settled before parsing.
    const ProblemKind problem = problem_in_arguments(std::vector<std::string>(argv + 1, argv + argc));
    ChapterCli cli(chapter_info(problem), stage_infos(problem));
    ChapterOptions chapter_options;
    add_chapter_options(cli, chapter_options);
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;

    const Plan plan = make_plan(cli, chapter_options);
    if (plan.analyze) {
      std::cout << analysis(cli.options().format, plan);
      return static_cast<int>(kExitOk);
    }
    require_host_bytes(host_bytes_needed(plan), plan.size_options);
    Session session(cli);
    session.require_device_bytes(device_bytes_needed(plan), plan.size_options);
    return run_plan(session, plan);
  });
}
