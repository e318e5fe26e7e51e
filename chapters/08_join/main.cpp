// Chapter 08: relational joins on sorted tables. Baxter's sort-merge join from chapter 03's
// sorted search and load-balancing search: inner, left, right and outer joins of two sorted key
// columns, from binary searches and a thread per row to Merge Path tiles, against the best
// Thrust + CUB composition. The stages are in join.cpp's table, one file each under stages/.
#include <utility>

#include "harness.hpp"
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
    const Plan plan = make_plan(chapter_options, cli.options().n);
    JoinInput input = draw_input(plan, cli.options().seed);
    Session session(cli);
    return run_plan(session, plan, std::move(input));
  });
}
