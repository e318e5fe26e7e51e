// Chapter 07: branch divergence and thread-data remapping. Elements whose paths differ share a
// warp and serialize; from the divergent kernel and the best kernel that moves nothing, to
// remaps by reference redirection and by data transformation, partial, pipelined and
// controlled. The stages are in divergence.cpp's tables, one file each under stages/; --analyze
// needs no GPU (--format json for tools/plot's remapping diagram).
#include <cstdint>
#include <iostream>

#include "analysis.hpp"
#include "host/harness.hpp"
#include "host/host_memory.hpp"
#include "host/mode_options.hpp"
#include "options.hpp"
#include "problems.hpp"

int main(int argc, char** argv) {
  using namespace stepwise;
  using namespace stepwise::divergence;
  return run_main(argv[0], [&] {
    // The table (--list, --stage) is the one of the workload the command line asks for.
    Plan listed;
    listed.workload = workload_in_arguments(argc, argv);
    Plan mutation;
    mutation.workload = WorkloadKind::mutation;
    const WorkloadTables tables{stage_infos(Plan{}), stage_infos(mutation)};
    ChapterCli cli(chapter_info(), stage_infos(listed));
    ChapterOptions chapter_options;
    add_chapter_options(cli, chapter_options, &tables);
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;
    const std::uint64_t n = cli.options().n;
    const Plan plan = make_plan(cli, chapter_options, n);
    if (plan.analyze) {
      require_host_bytes(analysis_host_bytes(plan, n), n_as_given(cli));
      const std::uint64_t seed = cli.options().seed;
      std::cout << (cli.options().format == Format::json ? analyze_json(plan, n, seed) : analyze(plan, n, seed));
      return static_cast<int>(kExitOk);
    }
    require_host_bytes(host_bytes(plan, n), n_as_given(cli));  // before the GPU opens: exit 2, not 77
    Session session(cli);
    return run_plan(session, plan);
  });
}
