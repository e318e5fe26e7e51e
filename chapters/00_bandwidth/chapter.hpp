/// @file chapter.hpp
/// Chapter 00 as run_chapter() sees it: its plan and its spec. Host code only.
#pragma once

#include "host/chapter.hpp"

namespace stepwise::bandwidth {

/// Everything a run needs beyond the common options.
struct Plan {
  bool latency = false;  ///< --latency: the pointer chase and Little's law instead of the table
};

/// The chapter: info, options, table and run.
Chapter<Plan> chapter();

}  // namespace stepwise::bandwidth
