/// @file chapter.hpp
/// Chapter 10 as run_chapter() sees it: its plan (plan.hpp) and its spec. Host code only: no
/// CUDA header.
#pragma once

#include "host/chapter.hpp"
#include "plan.hpp"

namespace stepwise::segmented {

/// The chapter: info, options bound to the plan, the table of the plan's problem, --analyze and run.
Chapter<Plan> chapter();

}  // namespace stepwise::segmented
