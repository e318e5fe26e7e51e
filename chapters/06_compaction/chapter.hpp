/// @file chapter.hpp
/// Chapter 06 as run_chapter() sees it: its plan (plan.hpp) and its spec. Host code only: no
/// CUDA header.
#pragma once

#include "host/chapter.hpp"
#include "plan.hpp"

namespace stepwise::compaction {

/// The chapter: info, options bound to the plan, the table of the plan's form, --analyze and run.
Chapter<Plan> chapter();

}  // namespace stepwise::compaction
