/// @file chapter.hpp
/// Chapter 05 as run_chapter() sees it: its plan (plan.hpp) and its spec. Host code only: no
/// CUDA header.
#pragma once

#include "host/chapter.hpp"
#include "plan.hpp"

namespace stepwise::atomics {

/// The chapter: info and table of the plan's problem, options bound to the plan, the checks of
/// their combinations, --analyze and the run (a table, or --surface).
Chapter<Plan> chapter();

}  // namespace stepwise::atomics
