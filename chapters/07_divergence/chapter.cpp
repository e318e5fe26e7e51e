// Chapter 07's spec: its options bound to the plan (options.cpp), the table of the workload the
// plan picks (divergence.cpp), --analyze (analysis.cpp) and its run (problems.cpp).
#include "chapter.hpp"

#include "analysis.hpp"
#include "host/host_memory.hpp"
#include "host/mode_options.hpp"
#include "options.hpp"
#include "problems.hpp"

namespace stepwise::divergence {

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = [](const Plan&) { return chapter_info(); };
  spec.add_options = [](ChapterCli& cli, Plan& plan) { add_chapter_options(cli, plan, stage_infos); };
  spec.stages = stage_infos;
  spec.validate = validate_plan;
  spec.require_host_memory = [](const Plan& plan, const CommonOptions& options) {
    require_host_bytes(host_bytes(plan, options.n), n_as_given(options));  // exit 2, not 77
  };
  spec.analyze = {
      "Print the paths, the divergent warps and each stage's warp efficiency and moved elements (of the first 2^26 "
      "elements at most), as a table or (--format json) with the paper's path-vector example, the document "
      "tools/plot draws the remapping diagram from; needs no GPU",
      {"--n", "--seed", "--format"},
      {Format::table, Format::json},
      [](const Plan& plan, const CommonOptions& options) {
        require_host_bytes(analysis_host_bytes(plan, options.n), n_as_given(options));
        const std::vector<StageFacts> stages = stage_facts(plan);
        return options.format == Format::json ? analyze_json(plan, options.n, options.seed, stages)
                                              : analyze(plan, options.n, options.seed, stages);
      }};
  spec.run = run_plan;
  return spec;
}

}  // namespace stepwise::divergence
