// Chapter 08: relational joins on sorted tables. Baxter's sort-merge join from chapter 03's
// sorted search and load-balancing search: inner, left, right and outer joins of two sorted key
// columns, from binary searches and a thread per row to Merge Path tiles, against the best
// Thrust + CUB composition. The stages are in join.cpp's table, one file each under stages/;
// --analyze prints the talk's worked joins without a GPU (--format json for tools/plot).
#include <iostream>
#include <utility>

#include "analysis.hpp"
#include "host/harness.hpp"
#include "host/host_memory.hpp"
#include "options.hpp"
#include "problems.hpp"

int main(int argc, char** argv) {
  using namespace stepwise;
  using namespace stepwise::join;
  return run_main(argv[0], [&] {
    ChapterOptions chapter_options;
    ChapterCli cli(chapter_info(), describe(join_stages()));
    add_chapter_options(cli, chapter_options);
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    if (chapter_options.analyze) {
      std::cout << analysis(cli.options().format);
      return static_cast<int>(kExitOk);
    }
    const Plan plan = make_plan(cli, chapter_options);
    // Memory first (host, then the GPU once it is open), for the join the sizes lead to expect;
    // the input is drawn after both, and its very join checked again.
    const double rows = expected_rows(plan);
    require_host_bytes(host_bytes_needed(plan, rows), plan.size_options);
    Session session(cli);
    session.require_device_bytes(device_bytes_needed(plan, rows), plan.size_options);
    JoinInput input = draw_input(plan, cli.options().seed);
    return run_plan(session, plan, std::move(input));
  });
}
