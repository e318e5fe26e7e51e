// Chapter 08's spec: its options bound to the plan (options.cpp), its table (join.cpp), the
// talk's worked joins for --analyze (analysis.cpp) and its run (problems.cpp).
#include "chapter.hpp"

#include "analysis.hpp"
#include "host/host_memory.hpp"
#include "inputs.hpp"
#include "join.hpp"
#include "problems.hpp"

namespace stepwise::join {

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = [](const Plan&) { return chapter_info(); };
  spec.add_options = add_chapter_options;
  spec.stages = [](const Plan&) { return describe(join_stages()); };
  spec.validate = validate_plan;
  // The host memory of the join the sizes lead to expect, before the GPU opens.
  spec.require_host_memory = [](const Plan& plan, const CommonOptions&) {
    require_host_bytes(host_bytes_needed(plan, expected_rows(plan)), plan.size_options);
  };
  spec.analyze = {
      "Print the talk's inner-join walk-through (bounds, counts, scan, load-balancing search), its expansion's tiles "
      "and the talk's outer join, as text or (--format json) for tools/plot; needs no GPU",
      {"--format"},
      {Format::table, Format::json},
      [](const Plan&, const CommonOptions& options) { return analysis(options.format); }};
  spec.run = run_plan;
  // A and B (--nb defaults to --n) share int32 row indices: up to 2^31 - 1 rows together.
  spec.problems = {{"inner", {"--join", "inner"}, kMaxRows / 2}};
  return spec;
}

}  // namespace stepwise::join
