// Chapter 05: warp-aggregated atomics. A histogram (scatter-add into K bins) from one atomic per
// element to one per distinct key per warp (Westphal's voting and shuffling), against
// cub::DeviceHistogram, and the filter's ticket, which the compiler now aggregates by itself.
// --problem picks the table; the stages are in atomics.cpp's tables, one file each under
// stages/; --surface times them over keys per warp and operations; --analyze needs no GPU
// (--format json for tools/plot's peers and sub-tree diagrams).
#include <cstdint>
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
  using namespace stepwise::atomics;
  return run_main(argv[0], [&] {
    const ProblemKind problem = problem_in_arguments(std::vector<std::string>(argv + 1, argv + argc));
    ChapterCli cli(chapter_info(problem), stage_infos(problem));
    ChapterOptions chapter_options;
    add_chapter_options(cli, chapter_options);
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    const Plan plan = make_plan(cli, chapter_options);
    const std::uint64_t n = cli.options().n;
    if (plan.analyze) {
      require_host_bytes(analysis_host_bytes(plan, n), plan.sizes);
      const std::uint64_t seed = cli.options().seed;
      std::cout << (cli.options().format == Format::json ? analyze_json(plan, n, seed) : analyze(plan, n, seed));
      return static_cast<int>(kExitOk);
    }
    require_host_bytes(host_bytes(plan, n), plan.sizes);  // before the GPU opens: exit 2, not 77
    Session session(cli);
    return run_plan(session, plan);
  });
}
