/// @file chapter.hpp
/// Chapter 03 as run_chapter() sees it: its plan (options.hpp) and its spec. Host code only.
#pragma once

#include "host/chapter.hpp"
#include "options.hpp"

namespace stepwise::merge {

/// The chapter: info and table of the problem --problem picks, the options, the sizes resolved
/// after the common checks, the host memory check, --analyze and the run.
Chapter<Plan> chapter();

}  // namespace stepwise::merge
