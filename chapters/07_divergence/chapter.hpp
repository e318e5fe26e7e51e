/// @file chapter.hpp
/// Chapter 07 as run_chapter() sees it: its plan (inputs.hpp) and its spec. Host code only: no
/// CUDA header.
#pragma once

#include <vector>

#include "host/chapter.hpp"

#include "inputs.hpp"

namespace stepwise::divergence {

/// The rows of @p plan's table (its workload's), as --list shows them.
std::vector<StageInfo> stage_infos(const Plan& plan);

/// The rows of @p plan's table with their traits, for --analyze and the tests.
std::vector<StageFacts> stage_facts(const Plan& plan);

/// The chapter: info, options, the table of the workload the plan picks, --analyze and run.
Chapter<Plan> chapter();

}  // namespace stepwise::divergence
