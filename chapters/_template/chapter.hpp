/// @file chapter.hpp
/// The template chapter as run_chapter() sees it: its plan (the options, typed) and its spec.
/// Host code only: no CUDA header.
#pragma once

#include <cstdint>
#include <limits>

#include "host/chapter.hpp"

namespace stepwise::square {

/// Everything a run needs beyond the common options.
struct Plan {
  /// --range R: the inputs are drawn uniformly from [-R, R].
  std::int32_t range = std::numeric_limits<std::int32_t>::max();
};

/// The chapter: info, options, table, --analyze and run.
Chapter<Plan> chapter();

}  // namespace stepwise::square
