// The spec of chapter 03: --problem picks the table, the sizes come from --n, --na and --nb.
#include "chapter.hpp"

#include "analysis.hpp"
#include "host/host_memory.hpp"
#include "problems.hpp"

namespace stepwise::merge {

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = [](const Plan& plan) { return chapter_info(plan.problem); };
  spec.add_options = add_options;
  spec.stages = [](const Plan& plan) { return stage_infos(plan.problem); };
  spec.validate = validate_plan;
  spec.require_host_memory = [](const Plan& plan, const CommonOptions&) {
    require_host_bytes(host_bytes_needed(plan), plan.size_options);
  };
  spec.analyze = {
      "Print the Merge Path of a small example and the work of each stage at these sizes (--n, --na, --nb, "
      "--type, --pairs), as text or (--format json) for tools/plot; needs no GPU",
      {"--n", "--format"},
      {Format::table, Format::json},
      [](const Plan& plan, const CommonOptions& options) { return analysis(options.format, plan); }};
  spec.run = [](Session& session, const Plan& plan) {
    session.require_device_bytes(device_bytes_needed(plan), plan.size_options);
    return run_plan(session, plan);
  };
  spec.problems = {
      {"keys int32", {"--problem", "merge", "--type", "int32"}},
      {"keys int64", {"--problem", "merge", "--type", "int64"}},
      {"pairs int32", {"--problem", "merge", "--type", "int32", "--pairs"}},
      {"pairs int64", {"--problem", "merge", "--type", "int64", "--pairs"}},
      {"search int32", {"--problem", "search", "--type", "int32"}},
  };
  return spec;
}

}  // namespace stepwise::merge
