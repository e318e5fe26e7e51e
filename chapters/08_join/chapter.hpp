/// @file chapter.hpp
/// Chapter 08 as run_chapter() sees it: its plan (options.hpp) and its spec. Host code only: no
/// CUDA header.
#pragma once

#include "host/chapter.hpp"
#include "options.hpp"

namespace stepwise::join {

/// The chapter: info, options, table, --analyze and run.
Chapter<Plan> chapter();

}  // namespace stepwise::join
